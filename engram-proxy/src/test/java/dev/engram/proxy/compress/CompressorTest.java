package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.CompressionMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompressorTest {
    private final OriginalStore store = CompressFixtures.store();
    private final Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);

    private CompressionOutcome auto(String text, int budget) {
        return compressor.compress("s", "t", text, TextCleaner.clean(text), budget, CompressionMode.AUTO);
    }

    @Test
    void autoPicksByShapeAndStoresTheOriginalExactly() {
        String md = CompressFixtures.markdown(20, 5);
        CompressionOutcome out = auto(md, 4000);
        assertEquals(CompressionMode.HYBRID, out.strategy());
        assertTrue(out.text().length() <= 4000);
        assertEquals(md, store.get(out.key()).orElseThrow().original());
    }

    /**
     * The text at 10%, 50% and 90% of each result is in the first answer, in the next read_more from
     * the offset the answer gives, or in one section the answer lists: one follow-up at most.
     */
    @Test
    void underAutoEveryPartOfALongResultIsOneCallAway() {
        String log = "* commit abc\n| Author: x\n|\n|     change\n| src/A.java | 3 +-\n".repeat(400);
        for (String text : List.of(CompressFixtures.prose(400), log, CompressFixtures.jsonArray(400),
                CompressFixtures.nestedJson(6, 120), CompressFixtures.markdown(40, 6))) {
            CompressionOutcome out = auto(text, 8000);
            StoredResult stored = store.get(out.key()).orElseThrow();
            int offset = Integer.parseInt(out.text().replaceAll("(?s).*offset=(\\d+)\\).*", "$1"));
            String chunk = ProgressiveChunks.chunk(stored, offset, ProgressiveChunks.DEFAULT_CHUNK_CHARS);
            int nextEnd = offset + chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
            for (double at : new double[] {0.1, 0.5, 0.9}) {
                int pos = (int) (text.length() * at);
                boolean reached = out.text().contains(text.substring(pos, pos + 30)) || (offset <= pos && pos < nextEnd)
                        || stored.sections().stream().anyMatch(s -> out.text().contains("- " + s.id() + " \"")
                                && s.start() <= pos && pos < s.end());
                assertTrue(reached, out.path() + ": the text at " + at + " is not one call away");
            }
        }
    }

    @Test
    void belowTheRetentionFloorAutoFallsBackToProgressive() {
        // extract_fields keeps all 3 top-level keys (retention 1.0) only if they fit; with 40 top-level
        // groups of which 3+ are nested, the preview cannot fit 2000 chars and the ladder takes over
        String json = CompressFixtures.nestedJson(40, 30);
        CompressionOutcome out = auto(json, 2000);
        assertEquals(CompressionMode.PROGRESSIVE, out.strategy());
        assertEquals("extract_fields→progressive_fallback", out.path());
    }

    @Test
    void anExplicitStrategyIsHonouredEvenWhenItKeepsLittle() {
        String text = CompressFixtures.prose(300);
        CompressionOutcome out = compressor.compress("s", "t", text, text, 3000, CompressionMode.TRUNCATE);
        assertEquals(CompressionMode.TRUNCATE, out.strategy());
        assertTrue(out.retention() < 0.65);
    }

    @Test
    void anExplicitStrategyThatDoesNotApplyFallsDownTheLadder() {
        String text = CompressFixtures.prose(300);
        CompressionOutcome out = compressor.compress("s", "t", text, text, 3000, CompressionMode.SCHEMA_PRUNING);
        assertEquals(CompressionMode.PROGRESSIVE, out.strategy());
    }

    @Test
    void cleaningAloneCanBeEnoughAndStillPointsAtTheOriginal() {
        String log = "\u001b[32mINFO\u001b[0m heartbeat ok\n".repeat(500);
        CompressionOutcome out = auto(log, 2000);
        assertEquals("clean", out.path());
        assertTrue(!out.text().contains("\u001b"));
        assertEquals(log, store.get(out.key()).orElseThrow().original());
    }

    @Test
    void noneReturnsTheCleanedTextAndStoresNothing() {
        String text = CompressFixtures.prose(300);
        CompressionOutcome out = compressor.compress("s", "t", text, text, 1000, CompressionMode.NONE);
        assertEquals(text, out.text());
        assertNull(out.key());
    }

    @Test
    void retentionFloorRisesForSmallResults() {
        RetentionFloor f = new RetentionFloor(0.5);
        assertEquals(0.90, f.forSize(500));
        assertEquals(0.75, f.forSize(2000));
        assertEquals(0.65, f.forSize(5000));
        assertEquals(0.5, f.forSize(50_000));
    }
}
