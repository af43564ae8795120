package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Tier;
import dev.engram.rank.NumericImportance;
import dev.engram.rank.TypedDecay;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * How a policy places a memory in a {@link Tier}. Tiers are computed from the memory's fields when read,
 * never stored: the fields that decide them (reads, importance, pins, type, expiry) are the ones every
 * write already keeps, so the tier cannot disagree with them, and a recall (which records the read)
 * moves a memory back to hot at once, in every process sharing the store. This is the single source of
 * truth: stats, briefings and every profile's rendering call {@link LifecyclePolicy#tier}.
 */
public sealed interface TierRules {

    Tier tierOf(Memory m, Instant now, TypedDecay decay);

    /** Whether {@code m} is in the permanent tier by its own fields (exempt from decay and collection). */
    boolean permanent(Memory m);

    /**
     * The native three tiers, by use only: hot when pinned or touched (written or read) within
     * {@code hotDays}, cold when untouched for {@code coldDays}, warm between.
     */
    record ByUse(int hotDays, int coldDays) implements TierRules {
        public ByUse {
            if (hotDays < 1 || coldDays <= hotDays) throw new IllegalArgumentException("need 1 <= hotDays < coldDays");
        }

        @Override
        public Tier tierOf(Memory m, Instant now, TypedDecay decay) {
            Instant lastTouch = m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(m.updatedAt())
                    ? m.lastAccessedAt() : m.updatedAt();
            long idleDays = Duration.between(lastTouch, now).toDays();
            if (m.pinned() || idleDays < hotDays) return Tier.HOT;
            return idleDays >= coldDays ? Tier.COLD : Tier.WARM;
        }

        @Override
        public boolean permanent(Memory m) {
            return false;
        }
    }

    /**
     * Memento's five tiers (seed-systems §2.6), with the importance faded by the policy's decay:
     * <ul>
     *   <li>short: working memory, i.e. a memory with an expiry (Memento's {@code scope: session});</li>
     *   <li>permanent: an anchor (pinned), a {@code permanentTypes} type, stored importance at least
     *       {@code permanentImportance}, or a hub: tagged {@code hubTag}, which the {@code tiers} step of a cycle
     *       gives a memory linked to at least {@code hubLinks} others ({@link TierStep}); on parole, a permanent memory that is no anchor, whose importance is
     *       under {@code paroleImportance} and that was not read for {@code paroleIdleDays} goes cold;</li>
     *   <li>hot: read within {@code hotDays} (a recall brings any non-permanent memory back here), or of a
     *       {@code hotTypes} type (errors, procedures) not idle for {@code idleDays};</li>
     *   <li>warm: tagged {@code warmTag} (episodes) or importance at least {@code warmImportance}, while not idle
     *       for {@code idleDays} and importance at least {@code coldImportance};</li>
     *   <li>cold: the rest (warm goes cold when importance falls under {@code coldImportance} or after
     *       {@code idleDays} without a read).</li>
     * </ul>
     * A new memory's initial tier is what this rule answers at its creation: preference or importance
     * ≥ 0.8 permanent, error and procedure hot, episode and ≥ 0.5 warm, else cold.
     */
    record Typed(Set<MemoryType> permanentTypes, double permanentImportance, Set<MemoryType> hotTypes, int hotDays,
                 String warmTag, double warmImportance, double coldImportance, int idleDays,
                 double paroleImportance, int paroleIdleDays, String hubTag, int hubLinks) implements TierRules {
        public Typed {
            permanentTypes = Set.copyOf(permanentTypes);
            hotTypes = Set.copyOf(hotTypes);
            Objects.requireNonNull(warmTag, "warmTag");
            Objects.requireNonNull(hubTag, "hubTag");
            if (hubLinks < 0) throw new IllegalArgumentException("hubLinks must be >= 0 (0: no hub promotion)");
            if (hotDays < 1 || idleDays < hotDays || paroleIdleDays < idleDays) {
                throw new IllegalArgumentException("need 1 <= hotDays <= idleDays <= paroleIdleDays");
            }
        }

        @Override
        public boolean permanent(Memory m) {
            return m.pinned() || permanentTypes.contains(m.type()) || NumericImportance.of(m) >= permanentImportance
                    || m.tags().contains(hubTag);
        }

        @Override
        public Tier tierOf(Memory m, Instant now, TypedDecay decay) {
            if (m.expiresAt() != null) return Tier.SHORT;
            Instant read = m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(m.createdAt()) ? m.lastAccessedAt() : null;
            long idle = Duration.between(read != null ? read : m.createdAt(), now).toDays();
            double stored = NumericImportance.of(m);
            if (permanent(m)) {
                boolean parole = !m.pinned() && stored < paroleImportance && idle >= paroleIdleDays;
                return parole ? Tier.COLD : Tier.PERMANENT;
            }
            if (read != null && Duration.between(read, now).toDays() < hotDays) return Tier.HOT;
            boolean idleLong = idle >= idleDays;
            if (hotTypes.contains(m.type()) && !idleLong) return Tier.HOT;
            double faded = decay.effective(m, stored, now, false);
            if ((m.tags().contains(warmTag) || faded >= warmImportance) && !idleLong && faded >= coldImportance) return Tier.WARM;
            return Tier.COLD;
        }
    }
}
