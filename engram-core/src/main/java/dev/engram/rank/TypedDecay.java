package dev.engram.rank;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Importance that fades by type (Memento, seed-systems §2.6):
 * {@code importance × 2^(−Δt / (halfLife × slow))}, never below {@code floor}, where Δt runs from the
 * last read (else the write) and {@code slow} in [1, 2] grows with use, so a memory that keeps being
 * recalled fades more slowly. Memento keeps an ACT-R activation (EMA) for {@code slow = clamp(1 + 0.5·ema, 1, 2)};
 * Engram keeps only the read count, so {@code slow = min(2, 1 + 0.1 × reads)} stands in (ten reads halve the
 * fading, as a saturated activation does).
 * <p>Computed when read from the stored importance, and written back by the maintenance cycle's
 * {@code decay} step ({@link dev.engram.engine.lifecycle.DecayStep}), which stamps
 * {@link Memory#lastDecayAt()}: Δt runs from that stamp, or before the first write-back from the last read or the
 * write ({@link #fadesFrom}), so a day of fading is counted once whether it was written back or is still computed. Exempt: the exempt
 * types (errors and preferences are the lessons agents regret losing), pinned memories (anchors), and
 * whatever the caller marks permanent. A memory already under the floor is left where it is, never raised.
 */
public record TypedDecay(Map<MemoryType, Integer> halfLifeDays, int defaultHalfLifeDays, double floor,
                         Set<MemoryType> exempt) {
    /** Memento's constants: procedure 30, fact 60, decision 90, relation 90, others 60 days; floor 0.05. */
    public static final TypedDecay MEMENTO = new TypedDecay(
            Map.of(MemoryType.PROCEDURE, 30, MemoryType.FACT, 60, MemoryType.DECISION, 90, MemoryType.RELATION, 90,
                    MemoryType.ERROR, 45, MemoryType.PREFERENCE, 120),
            60, 0.05, Set.of(MemoryType.ERROR, MemoryType.PREFERENCE));

    /** Nothing fades: every type exempt (the native profiles' policy, whose ranking fades by freshness instead). */
    public static final TypedDecay NONE = new TypedDecay(Map.of(), 60, 0.05, Set.of(MemoryType.values()));

    public TypedDecay {
        halfLifeDays = Map.copyOf(Objects.requireNonNull(halfLifeDays, "halfLifeDays"));
        exempt = Set.copyOf(Objects.requireNonNull(exempt, "exempt"));
        if (defaultHalfLifeDays < 1) throw new IllegalArgumentException("defaultHalfLifeDays must be >= 1");
        halfLifeDays.forEach((t, d) -> {
            if (d < 1) throw new IllegalArgumentException("half-life of " + t + " must be >= 1 day");
        });
        if (!(floor >= 0 && floor <= 1)) throw new IllegalArgumentException("floor must be 0..1");
    }

    public int halfLifeDays(MemoryType type) {
        return halfLifeDays.getOrDefault(type, defaultHalfLifeDays);
    }

    /** Whether {@code m} keeps its importance whatever its age. */
    public boolean exempt(Memory m, boolean permanent) {
        return permanent || m.pinned() || exempt.contains(m.type());
    }

    /**
     * Where the fading of {@code m} starts, as Memento counts it ({@code COALESCE(last_decay_at, accessed_at,
     * created_at)}): its last written-back decay; before any, its last read, else its creation. A read after a
     * write-back does not restart the clock: the stored importance already holds the fading up to the write-back,
     * and the days since it still count (use slows them, see {@link #effective}); restarting at the read dropped them.
     */
    public static Instant fadesFrom(Memory m) {
        if (m.lastDecayAt() != null) return m.lastDecayAt();
        Instant from = m.createdAt();
        if (m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(from)) from = m.lastAccessedAt();
        return from;
    }

    /** {@code importance} of {@code m} faded to {@code now}; {@code permanent} exempts it (a permanent tier). */
    public double effective(Memory m, double importance, Instant now, boolean permanent) {
        if (exempt(m, permanent) || importance <= floor) return importance;
        Instant from = fadesFrom(m);
        double days = Math.max(0, Duration.between(from, now).toMillis() / 86_400_000.0);
        double slow = Math.min(2.0, 1.0 + 0.1 * m.accessCount());
        double faded = importance * Math.pow(2, -days / (halfLifeDays(m.type()) * slow));
        return NumericImportance.round(Math.max(floor, faded));
    }
}
