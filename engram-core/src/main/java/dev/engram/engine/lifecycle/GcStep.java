package dev.engram.engine.lifecycle;

import dev.engram.engine.HardDeletion;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code gc}: garbage collection under {@link GcRules}, reversible in two stages. First it purges what an
 * earlier cycle archived and nobody restored within {@link GcRules#purgeAfter()} (into a tombstone, so
 * forget's restore still brings it back for the hard deletion's window); then it archives, oldest first,
 * at most {@link GcRules#maxPerCycle()} active memories that a rule collects. GC marks each memory it
 * archives ({@link #MARK} + id = the archive instant); a memory restored, edited or archived again since
 * has another update time than its mark, so GC never purges a user's own archive.
 */
public final class GcStep implements MaintenanceStep {
    /** Store mark prefix: {@code lifecycle.gc.<id>} = epoch milliseconds of the archive GC wrote. */
    public static final String MARK = "lifecycle.gc.";
    private final LifecyclePolicy policy;

    public GcStep(LifecyclePolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "gc";
    }

    /** The rule that collects {@code m} at {@code now} (a sentence), or empty. */
    Optional<String> collects(Memory m, Instant now, java.util.function.Predicate<String> linked) {
        return collects(m, now, linked, id -> false);
    }

    /** The same, {@code reflectNoise} saying which memories {@link #reflectNoise} found (they need their group). */
    Optional<String> collects(Memory m, Instant now, java.util.function.Predicate<String> linked,
                              java.util.function.Predicate<String> reflectNoise) {
        Optional<String> rule = rule(m, now, linked);
        if (rule.isPresent() || m.status() != MemoryStatus.ACTIVE || policy.exempt(m, now) || !reflectNoise.test(m.id())) {
            return rule;
        }
        GcRules.ReflectNoise r = policy.gc().reflect();
        return Optional.of("session reflection beyond the " + r.keepPerType() + " most important of its type, importance "
                + Steps.num(policy.importance(m, now)) + ", " + Duration.between(m.createdAt(), now).toDays() + " days old");
    }

    private Optional<String> rule(Memory m, Instant now, java.util.function.Predicate<String> linked) {
        GcRules r = policy.gc();
        if (m.status() != MemoryStatus.ACTIVE || m.pinned() || policy.exempt(m, now)) return Optional.empty();
        if (m.createdAt().plus(r.grace()).isAfter(now)) return Optional.empty();
        if (m.expiresAt() != null && !m.expiresAt().plus(r.grace()).isAfter(now)) {
            return Optional.of("expired at " + m.expiresAt());
        }
        if (!r.scored()) return Optional.empty();
        double importance = policy.importance(m, now);
        Instant touched = m.createdAt();
        if (m.updatedAt().isAfter(touched)) touched = m.updatedAt();
        if (m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(touched)) touched = m.lastAccessedAt();
        Duration idle = Duration.between(touched, now);
        Duration age = Duration.between(m.createdAt(), now);
        double months = Math.max(1.0, age.toMillis() / (30 * 86_400_000.0));
        double utility = importance * (1 + Math.log(Math.max(m.accessCount(), 1))) / Math.pow(months, 0.3);
        if (utility < r.minUtility() && idle.compareTo(r.utilityIdle()) >= 0) {
            return Optional.of("utility " + Steps.num(utility) + " under " + r.minUtility() + ", idle " + idle.toDays() + " days");
        }
        if (importance < r.fadedImportance() && idle.compareTo(r.fadedIdle()) >= 0) {
            return Optional.of("importance " + Steps.num(importance) + " under " + r.fadedImportance() + ", idle " + idle.toDays() + " days");
        }
        if (m.type() == MemoryType.ERROR && m.content().startsWith("[resolved]") && age.compareTo(r.resolvedAge()) >= 0
                && importance < r.resolvedImportance()) {
            return Optional.of("resolved error, importance " + Steps.num(importance));
        }
        if (!r.knownTypes().isEmpty() && !r.knownTypes().contains(m.type()) && importance < r.untypedImportance()) {
            return Optional.of("type " + m.type().wireName() + " is none of this profile's, importance " + Steps.num(importance));
        }
        if ((m.type() == MemoryType.FACT || m.type() == MemoryType.DECISION) && m.accessCount() == 0
                && age.compareTo(r.orphanAge()) >= 0 && importance < r.orphanImportance() && !linked.test(m.id())) {
            return Optional.of("orphan " + m.type().wireName() + " never read, no links, importance " + Steps.num(importance));
        }
        return Optional.empty();
    }

    /**
     * The ids of the session-reflection noise among {@code live} ({@link GcRules.ReflectNoise}): per type, past the
     * {@code keepPerType} most important (then newest), old enough and unimportant enough, and not exempt.
     */
    Set<String> reflectNoise(List<Memory> live, Instant now) {
        GcRules.ReflectNoise r = policy.gc().reflect();
        if (r.maxPerCycle() == 0 || r.tag().isEmpty()) return Set.of();
        Map<MemoryType, List<Memory>> byType = new java.util.EnumMap<>(MemoryType.class);
        for (Memory m : live) if (m.tags().contains(r.tag())) byType.computeIfAbsent(m.type(), t -> new ArrayList<>()).add(m);
        Set<String> out = new java.util.LinkedHashSet<>();
        for (List<Memory> group : byType.values()) {
            group.sort(java.util.Comparator.comparingDouble((Memory m) -> policy.importance(m, now)).reversed()
                    .thenComparing(Memory::createdAt, java.util.Comparator.reverseOrder()));
            for (Memory m : group.subList(Math.min(group.size(), r.keepPerType()), group.size())) {
                if (Duration.between(m.createdAt(), now).compareTo(r.minAge()) >= 0 && policy.importance(m, now) < r.maxImportance()
                        && !m.pinned() && !policy.exempt(m, now) && !m.createdAt().plus(policy.gc().grace()).isAfter(now)) {
                    out.add(m.id());
                }
            }
        }
        return out;
    }

    /** Whether GC archived {@code m} itself and it stayed so for the purge delay. */
    boolean purgeable(Optional<String> mark, Memory m, Instant now) {
        if (m.status() != MemoryStatus.ARCHIVED || m.pinned() || mark.isEmpty()) return false;
        long archivedAt;
        try {
            archivedAt = Long.parseLong(mark.get());
        } catch (NumberFormatException e) {
            return false;
        }
        return m.updatedAt().toEpochMilli() == archivedAt
                && !Instant.ofEpochMilli(archivedAt).plus(policy.gc().purgeAfter()).isAfter(now);
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        Instant now = c.now();
        int max = policy.gc().maxPerCycle();
        if (max == 0) return new StepReport(name(), 0, 0, List.of());
        List<Memory> archived = Steps.withStatus(c, MemoryStatus.ARCHIVED);
        List<Memory> purging = new ArrayList<>();
        for (Memory m : archived) {
            if (purging.size() == max) break;
            if (purgeable(c.store().mark(MARK + m.id()), m, now)) purging.add(m);
        }
        List<StepReport.Finding> done = new ArrayList<>(Steps.apply(c, purging,
                (tx, m) -> purgeable(tx.mark(MARK + m.id()), m, now),
                (tx, m) -> purged(m, HardDeletion.delete(tx, m, now)),
                m -> purged(m, now.plus(dev.engram.engine.Engine.RESTORE_WINDOW))));

        List<Memory> live = Steps.withStatus(c, MemoryStatus.ACTIVE);
        Set<String> noise = reflectNoise(live, now);
        int reflectMax = policy.gc().reflect().maxPerCycle();
        List<Memory> collecting = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        int byRule = 0, byNoise = 0;
        for (Memory m : live) {
            if (byRule == max && byNoise >= Math.min(reflectMax, noise.size())) break;
            Optional<String> why = byRule < max ? collects(m, now, id -> !c.store().edges(id).isEmpty()) : Optional.empty();
            if (why.isPresent()) {
                byRule++;
            } else if (byNoise < reflectMax && noise.contains(m.id())) {
                why = collects(m, now, id -> !c.store().edges(id).isEmpty(), noise::contains);
                if (why.isPresent()) byNoise++;
            }
            if (why.isPresent()) {
                collecting.add(m);
                reasons.add(why.get());
            }
        }
        List<StepReport.Finding> archivedNow = Steps.apply(c, collecting,
                (tx, m) -> collects(m, now, id -> !tx.edges(id).isEmpty(), noise::contains).isPresent(), (tx, m) -> {
            String why = collects(m, now, id -> !tx.edges(id).isEmpty(), noise::contains).orElseThrow();
            Memory out = m.toBuilder().status(MemoryStatus.ARCHIVED).updatedAt(now).build();
            tx.update(out);
            tx.putMark(MARK + m.id(), Long.toString(now.toEpochMilli()));
            return archived(m, why);
        }, m -> archived(m, reasons.get(collecting.indexOf(m))));
        done.addAll(archivedNow);
        return new StepReport(name(), archived.size() + live.size(), done.size(), Steps.listed(done));
    }

    private StepReport.Finding archived(Memory m, String why) {
        return new StepReport.Finding("archived", List.of(m.id()), why + "; archived (forget action restore brings it back; purged after "
                + policy.gc().purgeAfter().toDays() + " days)");
    }

    private static StepReport.Finding purged(Memory m, Instant until) {
        return new StepReport.Finding("purged", List.of(m.id()), "archived by gc and not restored; deleted, restorable until " + until);
    }
}
