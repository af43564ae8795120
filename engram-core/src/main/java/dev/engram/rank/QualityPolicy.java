package dev.engram.rank;

import dev.engram.analysis.Words;
import dev.engram.memory.Memory;
import dev.engram.memory.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Quality 0..1 of a memory from its tags, links, detail, specificity, recency, usage and origin
 * (toon-memory's measured weights, kept so scores stay comparable for users who switch).
 */
public final class QualityPolicy {
    private QualityPolicy() {
    }

    public static QualityScore score(Memory m, int linkCount, Instant now) {
        double tags = Math.min(0.3, 0.1 * m.tags().size());
        double links = Math.min(0.2, 0.1 * linkCount);
        int len = m.content().length();
        double detail = (len > 20 ? 0.1 : 0) + (len > 60 ? 0.1 : 0) + (len > 150 ? 0.1 : 0);
        List<String> words = Words.of(m.content());
        double specificity = words.isEmpty() ? 0 : 0.1 * Words.setOf(m.content()).size() / words.size();
        long ageDays = Duration.between(m.createdAt(), now).toDays();
        double recency = ageDays < 7 ? 0.1 : ageDays < 30 ? 0.05 : 0;
        double usage = Math.min(0.15, 0.03 * m.accessCount());
        if (m.lastAccessedAt() != null) {
            long idle = Duration.between(m.lastAccessedAt(), now).toDays();
            usage += idle < 1 ? 0.1 : idle < 7 ? 0.07 : idle < 30 ? 0.03 : 0;
        }
        long sinceUse = Duration.between(m.lastAccessedAt() != null ? m.lastAccessedAt() : m.createdAt(), now).toDays();
        if (ageDays > 30 && sinceUse > 30) {
            // staleness: unused for a month or more costs up to 0.2, fully after four months
            usage -= 0.2 * Math.min(1.0, (sinceUse - 30) / 90.0);
        }
        double origin = m.origin() == Origin.HUMAN ? 0.1 : m.origin() == Origin.INFERRED ? -0.05 : 0;
        return new QualityScore(tags, links, detail, round(specificity), recency, round(usage), origin);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
