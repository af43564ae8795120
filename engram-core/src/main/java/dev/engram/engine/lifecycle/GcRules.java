package dev.engram.engine.lifecycle;

import java.time.Duration;
import java.util.Objects;

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
 *   <li>expired: a memory whose expiry passed more than {@code grace} ago (working memory that ended);
 *       on in every policy with a positive {@code maxPerCycle}.</li>
 * </ul>
 */
public record GcRules(int maxPerCycle, Duration grace, Duration purgeAfter, boolean scored,
                      double minUtility, Duration utilityIdle,
                      Duration orphanAge, double orphanImportance,
                      double fadedImportance, Duration fadedIdle,
                      Duration resolvedAge, double resolvedImportance) {
    public GcRules {
        if (maxPerCycle < 0) throw new IllegalArgumentException("maxPerCycle must be >= 0");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(purgeAfter, "purgeAfter");
        Objects.requireNonNull(utilityIdle, "utilityIdle");
        Objects.requireNonNull(orphanAge, "orphanAge");
        Objects.requireNonNull(fadedIdle, "fadedIdle");
        Objects.requireNonNull(resolvedAge, "resolvedAge");
    }

    /** Memento's: 50 a cycle, 7 days' grace, utility 0.15 / 60 d, orphans 30 d / 0.2, faded 0.1 / 90 d, resolved 30 d / 0.3. */
    public static final GcRules MEMENTO = new GcRules(50, Duration.ofDays(7), Duration.ofDays(30), true,
            0.15, Duration.ofDays(60), Duration.ofDays(30), 0.2, 0.1, Duration.ofDays(90), Duration.ofDays(30), 0.3);

    /** Only expired memories (the scored rules need a fading importance, which the native profiles do not keep). */
    public static final GcRules EXPIRED_ONLY = new GcRules(50, Duration.ofDays(7), Duration.ofDays(30), false,
            0.15, Duration.ofDays(60), Duration.ofDays(30), 0.2, 0.1, Duration.ofDays(90), Duration.ofDays(30), 0.3);
}
