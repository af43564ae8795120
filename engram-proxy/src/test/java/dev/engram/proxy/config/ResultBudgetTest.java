package dev.engram.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultBudgetTest {
    private static final ResultBudget RULE = ResultBudget.DEFAULT;
    private static final int MAX = UpstreamConfig.DEFAULT_MAX_RESULT_CHARS;

    @Test
    void resultsUpToTheThresholdKeepTheServerBudgetSoTheyPassThrough() {
        assertEquals(MAX, RULE.forResult(100, MAX));
        assertEquals(MAX, RULE.forResult(5000, MAX));
        assertTrue(5000 <= RULE.forResult(5000, MAX), "5,000 chars pass through");
    }

    @Test
    void longerResultsGetAtMostTheShareOfTheirSizeAndNeverMoreThanTheServerBudget() {
        assertEquals(2250, RULE.forResult(5001, MAX), "just over the threshold: 45%, not 8,000");
        assertEquals(4050, RULE.forResult(9000, MAX));
        assertEquals(7999, RULE.forResult(17_777, MAX));
        assertEquals(MAX, RULE.forResult(17_778, MAX), "from here the server budget is the smaller");
        assertEquals(MAX, RULE.forResult(1_000_000, MAX));
        for (int raw = 5001; raw < 100_000; raw += 7) {
            int budget = RULE.forResult(raw, MAX);
            assertTrue(budget <= 0.45 * raw && budget <= MAX, raw + " chars got " + budget);
        }
    }

    @Test
    void aSmallerServerBudgetStillWins() {
        assertEquals(2000, RULE.forResult(3000, 2000), "under the threshold the server's budget compresses it");
        assertEquals(2000, RULE.forResult(6000, 2000));
    }

    @Test
    void aShareOfOneIsTheFixedServerBudgetAlone() {
        ResultBudget fixed = new ResultBudget(5000, 1.0);
        assertEquals(7000, fixed.forResult(7000, MAX), "within max_result_chars: passes through");
        assertEquals(MAX, fixed.forResult(9000, MAX));
    }

    @Test
    void neverBelowWhatTheStrategiesCanFill() {
        assertEquals(ResultBudget.MIN_CHARS, new ResultBudget(500, 0.1).forResult(600, MAX));
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        assertThrows(InvalidArgumentException.class, () -> new ResultBudget(499, 0.45));
        assertThrows(InvalidArgumentException.class, () -> new ResultBudget(5000, 0));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> new ResultBudget(5000, 1.5));
        assertTrue(e.getMessage().contains("ENGRAM_PROXY_MAX_RESULT_SHARE"), e.getMessage());
    }

    @Test
    void settingsReadBothSpellingsAndEngramWins() {
        assertEquals(RULE, ProxySettings.fromEnv(Map.of()).resultBudget());
        assertEquals(new ResultBudget(7000, 0.45),
                ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_COMPRESS_ABOVE_CHARS", "7000")).resultBudget());
        assertEquals(new ResultBudget(5000, 0.3), ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_MAX_RESULT_SHARE", "0.5",
                "ENGRAM_PROXY_MAX_RESULT_SHARE", "0.3")).resultBudget());
    }

    @Test
    void theSurfacingMinimumLeavesABandOfResultsThatPassThroughWithMemories() {
        SurfacingSettings s = SurfacingSettings.defaults();
        assertTrue(s.minResponseChars() < RULE.compressAboveChars(), "else no pass-through result ever gets memories");
        assertTrue(s.maxInjectionChars() <= s.minResponseChars(), "memories never outweigh the result under them");
    }
}
