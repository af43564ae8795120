package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecallRankingTest {
    @Test
    void twoDecimalsIsTheNearestHundredthWithTwoDigits() {
        for (int i = 0; i <= 10_000; i++) {
            double q = i / 10_000.0;
            String s = RecallRanking.twoDecimals(q);
            assertTrue(s.matches("[01]\\.\\d\\d"), s);
            assertTrue(Math.abs(Double.parseDouble(s) - q) <= 0.005 + 1e-9, q + " -> " + s);
        }
        assertEquals("0.07", RecallRanking.twoDecimals(0.07));
        assertEquals("0.70", RecallRanking.twoDecimals(0.7));
        assertEquals("1.00", RecallRanking.twoDecimals(1.0));
        assertEquals("0.00", RecallRanking.twoDecimals(0.0));
    }

    @Test
    void centralityIsLogDampedAndSaturatesAtSixteenLinks() {
        assertEquals(0, RecallRanking.centrality(0, 0.1).value(), 1e-12);
        assertEquals(0.1 * Math.log(2) / Math.log(17), RecallRanking.centrality(1, 0.1).value(), 1e-12);
        assertEquals(0.1, RecallRanking.centrality(16, 0.1).value(), 1e-12);
        assertEquals(0.1, RecallRanking.centrality(500, 0.1).value(), 1e-12, "a hub never outweighs its weight");
        double first = RecallRanking.centrality(1, 1).value(), second = RecallRanking.centrality(2, 1).value() - first;
        double tenth = RecallRanking.centrality(10, 1).value() - RecallRanking.centrality(9, 1).value();
        assertTrue(second > tenth, "the second link counts more than the tenth");
    }

    @Test
    void centralityExplainsItsLinkCount() {
        Contribution c = RecallRanking.centrality(3, 0.1);
        assertEquals("centrality", c.name());
        assertEquals("linked to 3 memories", c.reason());
        assertEquals("linked to 1 memory", RecallRanking.centrality(1, 0.1).reason());
    }
}
