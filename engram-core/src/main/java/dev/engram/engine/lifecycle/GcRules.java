package dev.engram.engine.lifecycle;

import java.time.Duration;
import dev.engram.memory.MemoryType;
import java.util.Objects;
import java.util.Set;

/**
 * What the {@code gc} step collects (seed-systems §2.6), at most {@code maxPerCycle} memories a cycle,
 * never one younger than {@code grace}, never an anchor (pinned) or a permanent-tier memory. Collecting
 * archives (status archived, restorable with forget's restore); a later cycle purges what GC archived
 * once it stayed archived for {@code purgeAfter}, through the hard deletion's tombstones (restorable for
 * their window still). Only what GC archived is ever purged by GC: a user's own archive is never touched.
 * <p>The rules, on the importance faded to the cycle's instant ({@code scored} turns the first four on):
 * <ul>
 *   <li>low utility: {@code importance × (1 + ln(max(reads, 1))) / ageMonths^0.3} under {@code minUtility}
 *       and not read or written for {@code utilityIdle};</li>
 *   <li>orphan: a fact or decision never read, without links, older than {@code orphanAge}, importance
 *       under {@code orphanImportance};</li>
 *   <li>faded: importance under {@code fadedImportance} and idle for {@code fadedIdle};</li>
 *   <li>resolved error: an error whose content starts with {@code [resolved]}, older than
 *       {@code resolvedAge}, importance under {@code resolvedImportance};</li>
 *   <li>untyped: a memory of none of the policy's {@code knownTypes} (Memento's NULL type: a memory another
 *       profile wrote into the workspace, with a type Memento has no name for), past the grace period, importance
 *       under {@code untypedImportance}; off when {@code knownTypes} is empty;</li>
 *   <li>expired: a memory whose expiry passed more than {@code grace} ago (working memory that ended);
 *       on in every policy with a positive {@code maxPerCycle}.</li>
 * </ul>
 * And, with its own bound {@code reflect.maxPerCycle()}, the noise of session reflections ({@link ReflectNoise}).
 */
public record GcRules(int maxPerCycle, Duration grace, Duration purgeAfter, boolean scored,
                      double minUtility, Duration utilityIdle,
                      Duration orphanAge, double orphanImportance,
                      double fadedImportance, Duration fadedIdle,
                      Duration resolvedAge, double resolvedImportance,
                      Set<MemoryType> knownTypes, double untypedImportance, ReflectNoise reflect) {
    public GcRules {
        if (maxPerCycle < 0) throw new IllegalArgumentException("maxPerCycle must be >= 0");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(purgeAfter, "purgeAfter");
        Objects.requireNonNull(utilityIdle, "utilityIdle");
        Objects.requireNonNull(orphanAge, "orphanAge");
        Objects.requireNonNull(fadedIdle, "fadedIdle");
        Objects.requireNonNull(resolvedAge, "resolvedAge");
        knownTypes = Set.copyOf(knownTypes);
        Objects.requireNonNull(reflect, "reflect");
    }

    /**
     * Session-reflection noise (Memento's {@code _purgeStaleReflections}): among the active memories tagged {@code tag}
     * (what a profile's reflect writes), per type, all but the {@code keepPerType} most important (then newest) that are
     * older than {@code minAge} with importance under {@code maxImportance}; at most {@code maxPerCycle} a cycle
     * (0: off). Anchors and the permanent tier are exempt, as from every rule.
     */
    public record ReflectNoise(String tag, int keepPerType, Duration minAge, double maxImportance, int maxPerCycle) {
        public ReflectNoise {
            Objects.requireNonNull(tag, "tag");
            Objects.requireNonNull(minAge, "minAge");
            if (keepPerType < 0 || maxPerCycle < 0) throw new IllegalArgumentException("keepPerType and maxPerCycle must be >= 0");
        }

        public static final ReflectNoise OFF = new ReflectNoise("", 0, Duration.ZERO, 0, 0);
    }

    /** The types Memento names (its seven, an episode being a fact here). */
    static final Set<MemoryType> MEMENTO_TYPES = Set.of(MemoryType.FACT, MemoryType.DECISION, MemoryType.ERROR,
            MemoryType.PREFERENCE, MemoryType.PROCEDURE, MemoryType.RELATION);

    /**
     * Memento's: 50 a cycle, 7 days' grace, utility 0.15 / 60 d, orphans 30 d / 0.2, faded 0.1 / 90 d, resolved 30 d / 0.3,
     * untyped 0.2; reflections (topic session_reflect) keep 5 a type, the rest 30 d / 0.3, 30 a cycle.
     */
    public static final GcRules MEMENTO = new GcRules(50, Duration.ofDays(7), Duration.ofDays(30), true,
            0.15, Duration.ofDays(60), Duration.ofDays(30), 0.2, 0.1, Duration.ofDays(90), Duration.ofDays(30), 0.3,
            MEMENTO_TYPES, 0.2, new ReflectNoise("topic:session_reflect", 5, Duration.ofDays(30), 0.3, 30));

    /** Only expired memories (the scored rules need a fading importance, which the native profiles do not keep). */
    public static final GcRules EXPIRED_ONLY = new GcRules(50, Duration.ofDays(7), Duration.ofDays(30), false,
            0.15, Duration.ofDays(60), Duration.ofDays(30), 0.2, 0.1, Duration.ofDays(90), Duration.ofDays(30), 0.3,
            Set.of(), 0.2, ReflectNoise.OFF);
}
