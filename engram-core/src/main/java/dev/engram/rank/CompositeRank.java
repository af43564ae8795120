package dev.engram.rank;

/**
 * The rank of a profile whose lifecycle fades importance (Memento's recall and context, seed-systems §2.6): a weighted
 * sum of the memory's importance (after its typed decay), its recency ({@code 2^(−days / half-life)}, days from the
 * instant the answer is anchored at) and its match (0..1, relative to the query's best hit), where the lifecycle part,
 * importance and recency, counts in proportion to the match:
 * <pre>
 *   rank = wMatch·match + match·(wImportance·importance + wRecency·recency)
 * </pre>
 * At a full match this is Memento's {@code 0.4·importance + 0.3·recency + 0.3·match} exactly, and two hits that match
 * alike are ordered by importance and recency exactly as that sum orders them: decay and age reorder comparably
 * relevant hits. What the gate stops is a weakly matching memory riding its freshness past a strong match. Without it
 * the whole match term spans 0.3 while age alone spans 0.3 of recency plus the importance its written-back decay took
 * (the same days counted twice), so three weeks of age outweighed the difference between a fragment that states the
 * question's subject and one that only shares its other words (docs/benchmarks.md, "The Memento month, gated"):
 * maintained stores, whose decay is written back, lost such old exact matches to recent facts about other subjects.
 * A listing without a query gives every memory a full match, so there the rank is Memento's sum unchanged.
 */
public record CompositeRank(double importanceWeight, double recencyWeight, double matchWeight, int recencyHalfLifeDays) {
    /** Memento's weights and recency half-life (config/memory.js {@code ranking}). */
    public static final CompositeRank MEMENTO = new CompositeRank(0.4, 0.3, 0.3, 30);

    public CompositeRank {
        for (double w : new double[] {importanceWeight, recencyWeight, matchWeight}) {
            if (!(w >= 0 && w <= 1)) throw new IllegalArgumentException("rank weights must be 0..1, got " + w);
        }
        if (Math.abs(importanceWeight + recencyWeight + matchWeight - 1) > 1e-9) {
            throw new IllegalArgumentException("rank weights must sum to 1, got " + (importanceWeight + recencyWeight + matchWeight));
        }
        if (recencyHalfLifeDays < 1) throw new IllegalArgumentException("recencyHalfLifeDays must be >= 1, got " + recencyHalfLifeDays);
    }

    /** Recency of a memory {@code days} away from the anchor instant (either side): 1 now, ½ after one half-life. */
    public double recency(double days) {
        return Math.pow(2, -Math.abs(days) / recencyHalfLifeDays);
    }

    /**
     * The rank of a memory with {@code importance} (0..1, after decay), {@code days} from the anchor and {@code match}
     * (0..1); at most 1.
     */
    public double score(double importance, double days, double match) {
        double m = clamp(match);
        return matchWeight * m + m * (importanceWeight * clamp(importance) + recencyWeight * recency(days));
    }

    private static double clamp(double v) {
        if (Double.isNaN(v)) throw new IllegalArgumentException("rank inputs must be numbers");
        return Math.max(0, Math.min(1, v));
    }
}
