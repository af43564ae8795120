package dev.engram.rank;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Final score of a recall candidate: lexical match plus boosts, each kept as a {@link Contribution}
 * so that {@code explain} shows exactly what was added and the parts sum to the score.
 * <pre>
 *   match      = 1.0 × relevance (BM25 / best BM25 of this query)
 *   importance = explicit level's boost (critical +0.30 … low −0.10), else 0.25 × automatic importance
 *   quality    = 0.20 × quality
 *   freshness  = 0.15 × 0.5^(days since update / type half-life); 0.15 for types that never decay
 *   warning    = +0.20 for warnings (landmines are worth surfacing)
 *   centrality = weight × ln(1 + links) / ln(1 + 16), at most weight; added by recall when the graph layer runs
 * </pre>
 * Pins are not a score: pinned memories are sorted ahead of everything else.
 */
public final class RecallRanking {
    static final double MATCH_WEIGHT = 1.0;
    static final double AUTO_IMPORTANCE_WEIGHT = 0.25;
    static final double QUALITY_WEIGHT = 0.20;
    static final double FRESHNESS_WEIGHT = 0.15;
    static final double WARNING_BOOST = 0.20;
    /**
     * Links at which a memory counts as fully central. A fixed reference, not the store's busiest memory:
     * no store-wide scan per recall, and a memory's score does not move when an unrelated hub grows.
     */
    static final int CENTRALITY_SATURATION = 16;

    private RecallRanking() {
    }

    public static List<Contribution> contributions(Memory m, double relevance, Instant now) {
        return contributions(m, relevance, now, 1.0);
    }

    /** {@code boostScale} multiplies every boost but the match (benchmarks tune it; 1.0 is the documented table). */
    public static List<Contribution> contributions(Memory m, double relevance, Instant now, double boostScale) {
        List<Contribution> parts = new ArrayList<>(5);
        parts.add(new Contribution("match", MATCH_WEIGHT * relevance, () -> Math.round(relevance * 100) + "% match"));
        if (m.importance() != null) {
            parts.add(new Contribution("importance", boostScale * m.importance().boost(), () -> "importance " + m.importance().wireName()));
        } else {
            double auto = automaticImportance(m, now);
            parts.add(new Contribution("importance", boostScale * AUTO_IMPORTANCE_WEIGHT * auto,
                    () -> "auto importance " + Math.round(auto * 100) + "%"));
        }
        parts.add(new Contribution("quality", boostScale * QUALITY_WEIGHT * m.quality(), () -> "quality " + twoDecimals(m.quality())));
        double fresh = freshness(m, now);
        parts.add(new Contribution("freshness", boostScale * FRESHNESS_WEIGHT * fresh,
                () -> m.type().decays() ? "updated " + ago(m.updatedAt(), now) : m.type().wireName() + "s never fade"));
        if (m.type() == MemoryType.WARNING) {
            parts.add(new Contribution("warning", boostScale * WARNING_BOOST, () -> "warning"));
        }
        return parts;
    }

    /**
     * The parts of a score under rank fusion, as toon-memory's {@code rrf: true} adds them: the fused ranks
     * ({@link RankFusion}) stand for match, centrality and automatic importance; an explicit importance level
     * and a warning still add their boosts. Quality and freshness, which toon does not have, are left out.
     */
    public static List<Contribution> fusedContributions(Memory m, double fused, double boostScale) {
        List<Contribution> parts = new ArrayList<>(3);
        parts.add(new Contribution("fusion", fused, () -> String.format(java.util.Locale.ROOT, "rank fusion %.3f", fused)));
        if (m.importance() != null) {
            parts.add(new Contribution("importance", boostScale * m.importance().boost(), () -> "importance " + m.importance().wireName()));
        }
        if (m.type() == MemoryType.WARNING) {
            parts.add(new Contribution("warning", boostScale * WARNING_BOOST, () -> "warning"));
        }
        return parts;
    }

    /** {@code q} in [0, 1] as {@code 0.00}, without String.format's cost. */
    static String twoDecimals(double q) {
        long hundredths = Math.round(q * 100);
        return hundredths / 100 + "." + (hundredths % 100 < 10 ? "0" : "") + hundredths % 100;
    }

    /**
     * Link centrality: a memory many others link to is a hub of the knowledge (a module, a person, a
     * decision others depend on). Log-damped, so the second link counts more than the tenth, and
     * normalised to 0..1 at {@link #CENTRALITY_SATURATION} links.
     */
    public static Contribution centrality(int links, double weight) {
        double c = Math.min(1.0, Math.log1p(links) / Math.log1p(CENTRALITY_SATURATION));
        return new Contribution("centrality", weight * c, () -> "linked to " + links + (links == 1 ? " memory" : " memories"));
    }

    public static double sum(List<Contribution> parts) {
        double s = 0;
        for (Contribution c : parts) s += c.value();
        return s;
    }

    /** toon-memory's automatic importance: 0.6 × recency (30-day window) + 0.4 × use (5 recalls saturate). */
    public static double automaticImportance(Memory m, Instant now) {
        long days = Duration.between(m.updatedAt(), now).toDays();
        double recency = Math.max(0, 30 - days) / 30.0;
        double use = Math.min(1.0, m.accessCount() / 5.0);
        return 0.6 * recency + 0.4 * use;
    }

    static double freshness(Memory m, Instant now) {
        if (!m.type().decays()) {
            return 1.0;
        }
        double days = Math.max(0, Duration.between(m.updatedAt(), now).toHours() / 24.0);
        return Math.pow(0.5, days / m.type().halfLifeDays());
    }

    public static String ago(Instant t, Instant now) {
        long days = Duration.between(t, now).toDays();
        if (days <= 0) return "today";
        if (days == 1) return "yesterday";
        return days + "d ago";
    }
}
