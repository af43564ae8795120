package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Tier;
import dev.engram.rank.NumericImportance;
import dev.engram.rank.TypedDecay;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A profile's memory lifecycle as configured values: how importance fades ({@code decay}, written back by
 * the {@code decay} step), how tiers are placed ({@code tiers}), what garbage collection takes ({@code gc}),
 * when a memory becomes an anchor ({@code anchor}), how feedback adapts importance ({@code feedback}) and
 * how often the in-process scheduler runs a cycle ({@code interval}). One engine serves every policy.
 */
public record LifecyclePolicy(String name, TypedDecay decay, TierRules tiers, GcRules gc, AutoAnchor anchor,
                              FeedbackRules feedback, Duration interval) {
    public LifecyclePolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(decay, "decay");
        Objects.requireNonNull(tiers, "tiers");
        Objects.requireNonNull(gc, "gc");
        Objects.requireNonNull(anchor, "anchor");
        Objects.requireNonNull(feedback, "feedback");
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive");
        }
    }

    /**
     * Memento's constants (seed-systems §2.6): typed decay, five tiers (a memory linked to 5 others becomes a permanent
     * hub), GC, auto-anchor, feedback (24 h window, 20 fragments a session), every 6 hours.
     */
    public static final LifecyclePolicy MEMENTO = new LifecyclePolicy("memento", TypedDecay.MEMENTO,
            new TierRules.Typed(Set.of(MemoryType.PREFERENCE), 0.8, Set.of(MemoryType.ERROR, MemoryType.PROCEDURE), 7,
                    "episode", 0.5, 0.3, 30, 0.5, 180, TierStep.HUB_TAG, 5),
            GcRules.MEMENTO, AutoAnchor.MEMENTO, FeedbackRules.MEMENTO, Duration.ofHours(6));

    /**
     * Every other profile's: no written-back decay (their ranking already fades by freshness when read, and
     * their importance is a level the caller chose), the three tiers by use, collection of expired memories
     * only (archived after a week's grace, purged 30 days later), no auto-anchor (a pin is injected into
     * every native recall, so only a caller pins), Memento's feedback steps, once a day.
     */
    public static final LifecyclePolicy DEFAULT = new LifecyclePolicy("default", TypedDecay.NONE,
            new TierRules.ByUse(7, 60), GcRules.EXPIRED_ONLY, AutoAnchor.OFF, FeedbackRules.MEMENTO, Duration.ofDays(1));

    /** The policy a profile runs: Memento's for {@code memento}, {@link #DEFAULT} for every other. */
    public static LifecyclePolicy forProfile(String profile) {
        return profile != null && profile.toLowerCase(Locale.ROOT).equals(MEMENTO.name) ? MEMENTO : DEFAULT;
    }

    /** The memory's tier now: the one source of truth for every profile's tier. */
    public Tier tier(Memory m, Instant now) {
        return tiers.tierOf(m, now, decay);
    }

    /** The tier a memory has when written with these fields (Memento's initial ttl_tier). */
    public Tier initialTier(Memory m) {
        return tiers.tierOf(m, m.createdAt(), decay);
    }

    /** Whether the memory is exempt from decay and collection: an anchor or in the permanent tier. */
    public boolean exempt(Memory m, Instant now) {
        return m.pinned() || tier(m, now) == Tier.PERMANENT;
    }

    /** The memory's importance faded to {@code now} (the number a profile shows), from its stored one. */
    public double importance(Memory m, Instant now) {
        return decay.effective(m, NumericImportance.of(m), now, tiers.permanent(m));
    }
}
