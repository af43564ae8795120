package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Memory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** brain-tools' freshness rules (tests/freshness.test.ts), transcribed onto {@link Freshness}. */
class FreshnessTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private static Instant daysAgo(double days) {
        return NOW.minusMillis((long) (days * 86_400_000d));
    }

    @Test
    void justVerifiedIsOneDueIsZeroAndEachIntervalOverdueSubtractsOne() {
        assertEquals(1.0, Freshness.coefficient(NOW, 7, NOW), 1e-9);
        assertEquals(0.0, Freshness.coefficient(daysAgo(7), 7, NOW), 1e-9);
        assertEquals(-1.0, Freshness.coefficient(daysAgo(14), 7, NOW), 1e-9);
        assertEquals(-2.0, Freshness.coefficient(daysAgo(21), 7, NOW), 1e-9);
        assertEquals(0.5, Freshness.coefficient(daysAgo(0.5), 1, NOW), 1e-9, "fractions of a day count");
    }

    @Test
    void labelsFollowBrainToolsThresholds() {
        assertEquals(FreshnessLabel.FRESH, FreshnessLabel.of(0.8));
        assertEquals(FreshnessLabel.FRESH, FreshnessLabel.of(0.5));
        assertEquals(FreshnessLabel.NORMAL, FreshnessLabel.of(0.3));
        assertEquals(FreshnessLabel.NORMAL, FreshnessLabel.of(0.0));
        assertEquals(FreshnessLabel.AGING, FreshnessLabel.of(-0.5));
        assertEquals(FreshnessLabel.AGING, FreshnessLabel.of(-1.0));
        assertEquals(FreshnessLabel.STALE, FreshnessLabel.of(-1.5));
        assertEquals(FreshnessLabel.STALE, FreshnessLabel.of(-2.0));
        assertEquals(FreshnessLabel.ARCHIVAL, FreshnessLabel.of(-2.1));
        assertEquals(FreshnessLabel.ARCHIVAL, FreshnessLabel.of(-5.0));
        assertEquals("archival", FreshnessLabel.ARCHIVAL.word());
    }

    @Test
    void needsReviewOnlyOncePastDue() {
        assertFalse(Freshness.of(daysAgo(7), 7, NOW).needsReview(), "exactly due is not yet overdue");
        assertTrue(Freshness.of(daysAgo(7.1), 7, NOW).needsReview());
        Freshness archival = Freshness.of(daysAgo(30), 1, NOW);
        assertTrue(archival.needsReview());
        assertEquals(FreshnessLabel.ARCHIVAL, archival.label());
        assertEquals(30, archival.daysSinceVerified());
        assertEquals(daysAgo(29), archival.nextReviewAt());
    }

    @Test
    void countsFromTheLastVerificationElseTheCreation() {
        Memory never = Memory.builder().id("m_1").key("k").content("c").createdAt(daysAgo(14)).updatedAt(daysAgo(14))
                .reviewIntervalDays(7).build();
        assertEquals(-1.0, Freshness.of(never, NOW).value(), 1e-9);
        Memory verified = never.toBuilder().lastVerifiedAt(daysAgo(1)).reviewIntervalDays(2).build();
        assertEquals(0.5, Freshness.of(verified, NOW).value(), 1e-9);
        assertEquals(FreshnessLabel.FRESH, Freshness.of(verified, NOW).label());
    }

    @Test
    void verifyDoublesTheIntervalUpTo365() {
        List<Integer> chain = new ArrayList<>();
        int interval = Freshness.DEFAULT_REVIEW_INTERVAL_DAYS;
        chain.add(interval);
        while (interval < Freshness.MAX_REVIEW_INTERVAL_DAYS) {
            interval = Freshness.nextInterval(interval);
            chain.add(interval);
        }
        assertEquals(List.of(7, 14, 28, 56, 112, 224, 365), chain);
        assertEquals(365, Freshness.nextInterval(200), "200 x 2 = 400 is capped");
        assertEquals(365, Freshness.nextInterval(365));
        assertEquals(2, Freshness.nextInterval(1));
    }

    @Test
    void anIntervalOutside1To365IsRefusedWithTheRange() {
        assertEquals(30, Freshness.checkedInterval("reviewInterval", 30));
        var e = assertThrows(InvalidArgumentException.class, () -> Freshness.checkedInterval("reviewInterval", 0));
        assertTrue(e.getMessage().contains("1..365"), e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Freshness.checkedInterval("reviewInterval", 366));
        assertThrows(IllegalArgumentException.class, () -> Freshness.coefficient(NOW, 0, NOW));
    }

    @Test
    void progressiveWideningKeepsTheFreshestPassThatIsNotEmpty() {
        Map<String, Double> f = Map.of("fresh", 0.9, "due", 0.0, "aging", -0.5, "stale", -1.9, "old", -9.0);
        assertEquals(List.of("fresh", "due"), Freshness.widen(List.of("old", "fresh", "aging", "due"), f::get),
                "the first pass keeps >= 0 in rank order");
        assertEquals(List.of("aging", "stale"), Freshness.widen(List.of("aging", "old", "stale"), f::get),
                "nothing >= 0: widen to >= -2");
        assertEquals(List.of("old"), Freshness.widen(List.of("old"), f::get), "only archival: the last pass keeps it");
        assertEquals(List.of(), Freshness.widen(List.<String>of(), f::get));
        assertEquals(Duration.ofDays(7), Duration.between(NOW, Freshness.of(NOW, 7, NOW).nextReviewAt()));
    }
}
