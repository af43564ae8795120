package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import java.time.Duration;
import java.util.Objects;

/**
 * The constants of the consolidation steps ({@link MergeStep}, {@link CompressStep}, {@link ContradictionStep}):
 * one record per profile, so one engine runs every profile's consolidation.
 * <ul>
 *   <li>{@code mergeCosine}: embedding cosine at or above which two memories of one zone, type and topic are the
 *       same memory said twice and merge (content-hash duplicates always merge);</li>
 *   <li>{@code compressCosine}, {@code compressMinGroup}, {@code compressIdle}, {@code compressMaxImportance},
 *       {@code compressMaxGroup}: old, unimportant memories of one topic whose vectors are that close, in groups of
 *       at least that many, idle (not recalled, or never, since written) that long, are folded into one;</li>
 *   <li>{@code contentLimit}: the representative's content never grows past this many characters;</li>
 *   <li>{@code contradictionCosine}, {@code contradictionJaccard}: how close (by vector, or by word sets when a
 *       memory has no vector) two memories of one topic must be to be checked for a contradiction;</li>
 *   <li>{@code neighbours}: how many nearest memories each memory is compared with (bounds every step);</li>
 *   <li>{@code contradictionFactor}, {@code importanceFloor}: a confirmed contradiction multiplies the older
 *       memory's importance (0..1, {@link dev.engram.rank.NumericImportance}) by the factor, never below the floor;</li>
 *   <li>{@code topicTagPrefix}: a memory's topic is its first tag with this prefix (Memento's {@code topic:});
 *       {@code null}: the topic is the zone (profiles without topics);</li>
 *   <li>{@code maxPerCycle}: at most this many memories changed per step and cycle (the rest wait for the next).</li>
 * </ul>
 */
public record ConsolidationPolicy(double mergeCosine, double compressCosine, int compressMinGroup, int compressMaxGroup,
                                  Duration compressIdle, double compressMaxImportance, int contentLimit,
                                  double contradictionCosine, double contradictionJaccard, int neighbours,
                                  double contradictionFactor, double importanceFloor, String topicTagPrefix,
                                  int maxPerCycle) {

    /**
     * Memento's own numbers (seed-systems §2.6, lib/memory/MemoryConsolidator and ConsolidatorGC): semantic dedup at
     * cosine 0.92 within a topic; compression of fragments idle 30 days with importance below 0.5, cosine ≥ 0.80,
     * groups of 3 to 10; contradiction candidates above cosine 0.85; fragments of 300 characters; topic tags.
     * Memento's cosines are OpenAI-embedding cosines; Engram compares them with rescaled cosines
     * ({@link dev.engram.engine.Similarity}), on which the same numbers are stricter.
     */
    public static final ConsolidationPolicy MEMENTO = new ConsolidationPolicy(0.92, 0.80, 3, 10, Duration.ofDays(30),
            0.5, 300, 0.85, 0.5, 10, 0.5, 0.05, "topic:", 50);

    /**
     * Every other profile, set for Engram's in-jar model (`engram-bench nearduplicates`, docs/benchmarks.md: the
     * same fact said twice scored 0.645–0.967, a different fact on the same topic 0.319–0.570): merge at 0.80, well
     * clear of the closest different facts, because a periodic job archives without asking; compress groups at
     * 0.55 (facts of one subject, not restatements), contradiction candidates at 0.62
     * ({@link dev.engram.engine.Engine#NEAR_DUPLICATE_COSINE}: a contradiction says the same thing with one value
     * or the polarity changed, so it scores like a near-duplicate). Memento's ages, sizes and importance steps;
     * a representative of at most 500 characters; the zone is the topic.
     */
    public static final ConsolidationPolicy DEFAULT = new ConsolidationPolicy(0.80, 0.55, 3, 10, Duration.ofDays(30),
            0.5, 500, 0.62, 0.5, 10, 0.5, 0.05, null, 50);

    public ConsolidationPolicy {
        unit("mergeCosine", mergeCosine);
        unit("compressCosine", compressCosine);
        unit("contradictionCosine", contradictionCosine);
        unit("contradictionJaccard", contradictionJaccard);
        unit("contradictionFactor", contradictionFactor);
        unit("importanceFloor", importanceFloor);
        unit("compressMaxImportance", compressMaxImportance);
        if (compressMinGroup < 2) throw new IllegalArgumentException("compressMinGroup must be >= 2, got " + compressMinGroup);
        if (compressMaxGroup < compressMinGroup) {
            throw new IllegalArgumentException("compressMaxGroup must be >= compressMinGroup, got " + compressMaxGroup);
        }
        Objects.requireNonNull(compressIdle, "compressIdle");
        if (compressIdle.isNegative()) throw new IllegalArgumentException("compressIdle must not be negative, got " + compressIdle);
        if (contentLimit < 20) throw new IllegalArgumentException("contentLimit must be >= 20, got " + contentLimit);
        if (neighbours < 1) throw new IllegalArgumentException("neighbours must be >= 1, got " + neighbours);
        if (maxPerCycle < 1) throw new IllegalArgumentException("maxPerCycle must be >= 1, got " + maxPerCycle);
        if (topicTagPrefix != null && topicTagPrefix.isEmpty()) topicTagPrefix = null;
    }

    /** The memory's topic under this policy: its topic tag, or its zone when the policy has none (or it has no tag). */
    public String topicOf(Memory m) {
        if (topicTagPrefix != null) {
            for (String t : m.tags()) {
                if (t.startsWith(topicTagPrefix)) return m.zone() + "|" + t;
            }
        }
        return m.zone();
    }

    private static void unit(String field, double v) {
        if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(field + " must be 0..1, got " + v);
    }
}
