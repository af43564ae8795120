package dev.engram.cli.hook;

import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.rank.Freshness;
import java.time.Clock;
import java.util.List;

/** The hooks' memory on the engine's entity graph (the brain profile's entities). */
public final class EntityGraphHookMemory implements HookMemory {
    private final EntityGraph graph;
    private final Clock clock;

    public EntityGraphHookMemory(EntityGraph graph, Clock clock) {
        this.graph = graph;
        this.clock = clock;
    }

    @Override
    public List<Recalled> recall(String zone, String query, int max) {
        if (query == null || query.isBlank()) return List.of();
        return graph.search(zone, query, max).stream().map(this::recalled).toList();
    }

    private Recalled recalled(Entity e) {
        return new Recalled(e.name(), e.entityType(), Freshness.of(e.memory(), clock.instant()), e.observationTexts());
    }

    @Override
    public List<String> related(String zone, String text, int max) {
        if (text == null || text.isBlank()) return List.of();
        return graph.search(zone, text, max).stream().map(Entity::name).toList();
    }

    @Override
    public int save(String zone, List<SaveItem> items) {
        List<EntityDraft> drafts = items.stream()
                .map(i -> new EntityDraft(i.name(), i.entityType(), i.observations(), i.reviewIntervalDays())).toList();
        int before = items.stream().mapToInt(i -> graph.find(zone, i.name()).map(e -> e.observations().size()).orElse(0)).sum();
        int after = graph.create(zone, drafts, ExistingEntity.MERGE).stream().mapToInt(e -> e.observations().size()).sum();
        return Math.max(0, after - before);
    }

    @Override
    public boolean verify(String zone, String name) {
        if (graph.find(zone, name).isEmpty()) return false;
        graph.verify(zone, name, null);
        return true;
    }
}
