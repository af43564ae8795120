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
}
