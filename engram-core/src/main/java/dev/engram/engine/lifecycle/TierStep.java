package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code tiers}: the tier transition a cycle writes (Memento's hub rule, seed-systems §2.6): an active memory linked to at
 * least {@link TierRules.Typed#hubLinks()} distinct memories (edges of any type, either direction) is tagged
 * {@link #HUB_TAG}, which puts it in the permanent tier ({@link TierRules.Typed#permanent}). Every other transition
 * follows from fields each write keeps and needs no step; a memory's links are not such a field, so the promotion is
 * written, as Memento writes it at consolidation. Like Memento's, it stays when links go later; a hub that is no anchor
 * is still on parole (importance under 0.5 and no read for 180 days: cold). A policy without the typed tiers, or with
 * {@code hubLinks} 0, promotes nothing.
 */
public final class TierStep implements MaintenanceStep {
    /** The tag of a memory promoted to the permanent tier as a hub. */
    public static final String HUB_TAG = "hub";
    private final LifecyclePolicy policy;

    public TierStep(LifecyclePolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "tiers";
    }

    /** The link count a memory needs to become a hub, or 0 when this policy has no hub rule. */
    private int hubLinks() {
        return policy.tiers() instanceof TierRules.Typed t ? t.hubLinks() : 0;
    }

    boolean qualifies(Memory m, int links) {
        int need = hubLinks();
        return need > 0 && m.status() == MemoryStatus.ACTIVE && links >= need && !m.tags().contains(HUB_TAG)
                && m.tags().size() < MemoryRules.MAX_TAGS;
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        List<Memory> live = Steps.withStatus(c, MemoryStatus.ACTIVE);
        if (hubLinks() == 0 || live.isEmpty()) return new StepReport(name(), live.size(), 0, List.of());
        Map<String, Integer> degrees = c.store().degrees(live.stream().map(Memory::id).toList());
        List<Memory> promoting = new ArrayList<>();
        for (Memory m : live) if (qualifies(m, degrees.getOrDefault(m.id(), 0))) promoting.add(m);
        Instant now = c.now();
        List<StepReport.Finding> done = Steps.apply(c, promoting,
                (tx, m) -> qualifies(m, distinctLinked(tx.edges(m.id()), m.id())), (tx, m) -> {
                    List<String> tags = new ArrayList<>(m.tags());
                    tags.add(HUB_TAG);
                    tx.update(m.toBuilder().tags(tags).build());
                    return finding(m, distinctLinked(tx.edges(m.id()), m.id()), now);
                }, m -> finding(m, degrees.getOrDefault(m.id(), 0), now));
        return new StepReport(name(), live.size(), done.size(), Steps.listed(done));
    }

    private static int distinctLinked(List<dev.engram.memory.Edge> edges, String id) {
        return (int) edges.stream().map(e -> e.fromId().equals(id) ? e.toId() : e.fromId()).distinct().count();
    }

    private StepReport.Finding finding(Memory m, int links, Instant now) {
        return new StepReport.Finding("promoted", List.of(m.id()), "linked to " + links + " fragments (hub rule: "
                + hubLinks() + "): " + policy.tier(m, now).wireName() + " -> permanent");
    }
}
