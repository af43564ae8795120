package dev.engram.cli.hook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stop hook's saves on a real entity graph. */
class EntityGraphHookMemoryTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final EntityGraph graph = engine.entities();
    private final EntityGraphHookMemory memory = new EntityGraphHookMemory(graph, clock);

    @Test
    void savingAnExistingNameOnlyAddsObservations() {
        graph.create("default", List.of(new EntityDraft("Billing", "Project", List.of("uses Stripe"), 90)), ExistingEntity.MERGE);
        int added = memory.save("default", List.of(new HookMemory.SaveItem("Billing", "Concept", List.of("uses Stripe", "invoices monthly"), 3)));
        assertEquals(1, added);
        Entity e = graph.find("default", "Billing").orElseThrow();
        assertEquals("Project", e.entityType(), "the user's type stays");
        assertEquals(90, e.memory().reviewIntervalDays(), "the user's review interval stays");
        assertEquals(List.of("uses Stripe", "invoices monthly"), e.observationTexts());
    }

    @Test
    void aNewNameIsCreatedWithTheModelsTypeAndInterval() {
        assertEquals(1, memory.save("default", List.of(new HookMemory.SaveItem("Rule 1", "Rule", List.of("no force pushes"), 30))));
        Entity e = graph.find("default", "Rule 1").orElseThrow();
        assertEquals("Rule", e.entityType());
        assertEquals(30, e.memory().reviewIntervalDays());
    }
}
