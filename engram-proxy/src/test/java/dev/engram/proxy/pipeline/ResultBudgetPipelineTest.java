package dev.engram.proxy.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.compress.CompressFixtures;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.Footers;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.compress.Section;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.MemoryHit;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.ThresholdTuner;
import dev.engram.mcp.render.TokenEstimate;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The budget rule end to end through CLEAN and COMPRESS with the default server settings (AUTO,
 * 8,000 chars): results up to 5,000 chars pass through byte-identical; every longer one, whatever
 * its shape, comes out with at least half its tokens saved and its original exactly recoverable by
 * read_more and by select_chunks. And together with SURFACE: results between the surfacing minimum
 * and the compression threshold pass through with memories appended.
 */
class ResultBudgetPipelineTest {
    private static final UpstreamConfig UPSTREAM = UpstreamConfig.of("s", "s", new UpstreamTransport.Stdio("x", List.of(), List.of()));
    private final OriginalStore store = CompressFixtures.store();
    private final Compressor compressor = new Compressor(CompressFixtures.MAPPER, store, new RetentionFloor(RetentionFloor.DEFAULT),
            ProgressiveChunks.DEFAULT_CHUNK_CHARS);

    private static ProxiedCall call(String path) {
        return new ProxiedCall(UPSTREAM, "read_text_file", "s__read_text_file", Map.of("path", path), ResultBudget.DEFAULT);
    }

    /** Texts of every shape AUTO tells apart, from well under to far over the threshold. */
    private static List<String> corpus() {
        List<IntFunction<String>> shapes = List.of(n -> CompressFixtures.markdown(n, 3), CompressFixtures::prose,
                n -> CompressFixtures.jsonArray(n * 2), n -> CompressFixtures.nestedJson(6, n / 2 + 1),
                n -> "\u001b[32mINFO\u001b[0m  step ok\n".repeat(n * 4) + "\u001b[31mERROR\u001b[0m failed once\n",
                ResultBudgetPipelineTest::log);
        List<String> texts = new ArrayList<>();
        for (IntFunction<String> shape : shapes) {
            for (int n = 5; n <= 400; n += 5) texts.add(shape.apply(n));
        }
        return texts;
    }

    /** A log without repeats, so cleaning cannot shrink it much: {@code n * 1.5} lines. */
    private static String log(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n * 3 / 2; i++) {
            sb.append("2026-01-01T00:00:").append(i % 60).append(" worker-").append(i % 7).append(" handled request ")
                    .append(i * 7919 % 10_007).append(" in ").append(i % 97).append(" ms\n");
        }
        return sb.toString();
    }

    @Test
    void upTo5000CharsPassThroughAndEveryLongerResultSavesHalfItsTokensRecoverably() {
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(compressor)));
        int over = 0;
        for (String raw : corpus()) {
            PipelineText out = pipeline.run(call("a/b/c"), raw);
            if (raw.length() <= ResultBudget.COMPRESS_ABOVE_CHARS) {
                assertSame(raw, out.text(), raw.length() + " chars must pass through");
                continue;
            }
            over++;
            String what = raw.length() + " chars, path " + out.path();
            assertTrue(out.text().length() <= ResultBudget.MAX_SHARE * raw.length(), what + ": " + out.text().length() + " chars out");
            assertTrue(TokenEstimate.of(out.text()) * 2 <= TokenEstimate.of(raw), what + ": under 50% saved");
            StoredResult stored = store.get(out.resultKey()).orElseThrow();
            assertEquals(raw, readAll(stored), what + ": read_more");
            StringBuilder selected = new StringBuilder();
            for (Section s : stored.sections()) selected.append(stored.original(), s.start(), s.end());
            assertEquals(raw, selected.toString(), what + ": select_chunks of every section");
        }
        assertTrue(over > 100, "the corpus must mostly be over the threshold, was " + over);
    }

    private static String readAll(StoredResult stored) {
        StringBuilder sb = new StringBuilder();
        for (int offset = 0; ; ) {
            String chunk = ProgressiveChunks.chunk(stored, offset, ProgressiveChunks.DEFAULT_CHUNK_CHARS);
            int at = chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
            sb.append(chunk, 0, at);
            offset += at;
            if (chunk.substring(at).contains("has_more=false")) return sb.toString();
        }
    }

    @Test
    void midSizeResultsPassThroughWithMemoriesAndLargerOnesAreCompressedWithMemories(@TempDir Path dir) {
        SurfacingSettings settings = SurfacingSettings.defaults();
        AtomicInteger n = new AtomicInteger();
        try (ProxyStats stats = new ProxyStats(dir, Clock.systemUTC());
             Surfacer surfacer = new Surfacer(settings, (q, limit) -> List.of(new MemoryHit("m_" + n.incrementAndGet(),
                     "rotation", "rotate the certificates quarterly", 2.0)), Clock.systemUTC(),
                     new ThresholdTuner(settings, stats), stats, () -> "sid" + n.get())) {
            Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(compressor), new SurfaceStage(surfacer)));
            String small = CompressFixtures.prose(settings.minResponseChars() / 100 - 5);
            String mid = CompressFixtures.prose(45);
            String large = CompressFixtures.prose(70);
            assertTrue(small.length() < settings.minResponseChars() && mid.length() > settings.minResponseChars()
                    && mid.length() <= ResultBudget.COMPRESS_ABOVE_CHARS && large.length() > ResultBudget.COMPRESS_ABOVE_CHARS,
                    small.length() + " " + mid.length() + " " + large.length());

            assertSame(small, pipeline.run(call("ops/small/notes.txt"), small).text(), "no memories under a short answer");
            PipelineText withMemories = pipeline.run(call("ops/mid/runbook.txt"), mid);
            assertTrue(withMemories.text().startsWith(mid) && withMemories.text().contains("rotate the certificates"),
                    withMemories.text());
            assertEquals("none", withMemories.path(), "the result itself passed through");
            PipelineText compressed = pipeline.run(call("ops/large/manual.txt"), large);
            assertFalse(compressed.text().startsWith(large));
            assertTrue(compressed.text().contains("rotate the certificates"), compressed.text());
        }
    }
}
