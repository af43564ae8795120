package dev.engram.proxy.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.Footers;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.compress.Section;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PipelineTest {
    private static final UpstreamConfig UPSTREAM = new UpstreamConfig("s", "s", new UpstreamTransport.Stdio("x", List.of(), List.of()),
            CompressionMode.AUTO, 1000, 0);
    private static final ProxiedCall CALL = new ProxiedCall(UPSTREAM, "read", "s__read", Map.of(), ResultBudget.DEFAULT);

    private static PipelineStage stage(String name, java.util.function.UnaryOperator<PipelineText> f, int max) {
        return new PipelineStage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public PipelineText apply(PipelineText in, ProxiedCall call) {
                return f.apply(in);
            }

            @Override
            public int maxOutputChars(PipelineText in, ProxiedCall call) {
                return max;
            }
        };
    }

    @Test
    void aStageReturningNullIsNamed() {
        Pipeline p = new Pipeline(List.of(stage("ok", in -> in, 100), stage("broken", in -> null, 100)));
        PipelineContractException e = assertThrows(PipelineContractException.class, () -> p.run(CALL, "text"));
        assertEquals("pipeline stage 'broken' broke its contract: returned null", e.getMessage());
    }

    @Test
    void aStageOverItsBudgetIsNamedWithTheNumbers() {
        Pipeline p = new Pipeline(List.of(stage("greedy", in -> in.withText("x".repeat(50)), 10)));
        PipelineContractException e = assertThrows(PipelineContractException.class, () -> p.run(CALL, "text"));
        assertTrue(e.getMessage().contains("'greedy'") && e.getMessage().contains("returned 50 chars, at most 10"), e.getMessage());
    }

    @Test
    void aStageMayNotRewriteTheRawText() {
        Pipeline p = new Pipeline(List.of(stage("forger", in -> new PipelineText("other", "other", "", null, null), 100)));
        assertThrows(PipelineContractException.class, () -> p.run(CALL, "text"));
    }

    @Test
    void smallResultsPassThroughCleanAndCompressUntouched() {
        AtomicInteger keys = new AtomicInteger();
        Compressor c = new Compressor(McpJsonDefaults.getMapper(), new OriginalStore(Clock.systemUTC(),
                () -> "k" + keys.incrementAndGet()), new RetentionFloor(0.65), 4000);
        Pipeline p = new Pipeline(List.of(new CleanStage(), new CompressStage(c)));
        String small = "\u001b[31mred\u001b[0m   stays  exactly\n\n\n\nas sent";
        PipelineText out = p.run(CALL, small);
        assertSame(small, out.text());
        assertTrue(out.untouched());
        assertEquals(0, keys.get(), "nothing stored");
    }

    @Test
    void largeResultsComeOutWithinTheServerBudget() {
        Compressor c = new Compressor(McpJsonDefaults.getMapper(), new OriginalStore(Clock.systemUTC(), () -> "k1"),
                new RetentionFloor(0.65), 4000);
        Pipeline p = new Pipeline(List.of(new CleanStage(), new CompressStage(c)));
        PipelineText out = p.run(CALL, "Some words here. ".repeat(150));
        assertTrue(out.text().length() <= 1000);
        assertEquals("k1", out.resultKey());
        assertEquals("progressive", out.path());
    }
    /**
     * Over the processing cap nothing is cleaned or analysed: the first chunk is the raw text itself
     * (escape codes and repeated lines included), the note says why, and the stored original comes back
     * exactly by sections, as for any compressed result.
     */
    @Test
    void aResultOverTheProcessingCapGetsItsRawHeadAndANote() {
        OriginalStore store = new OriginalStore(Clock.systemUTC(), () -> "k1");
        Compressor c = new Compressor(McpJsonDefaults.getMapper(), store, new RetentionFloor(0.65), 4000);
        Pipeline p = new Pipeline(List.of(new CleanStage(), new CompressStage(c)));
        String line = "\u001b[32mINFO\u001b[0m  same   line\n";
        String raw = "# Title\n\n## Part\n" + line.repeat(Compressor.MAX_PROCESSED_CHARS / line.length() + 10);
        assertTrue(raw.length() > Compressor.MAX_PROCESSED_CHARS);
        for (int max : new int[] {8000, 500}) {
            UpstreamConfig upstream = new UpstreamConfig("s", "s", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                    CompressionMode.AUTO, max, 0);
            PipelineText out = p.run(new ProxiedCall(upstream, "t", "s__t", Map.of(), ResultBudget.DEFAULT), raw);
            assertTrue(out.text().length() <= max, out.text().length() + " > " + max);
            assertTrue(out.text().contains("over the proxy's cap of " + Compressor.MAX_PROCESSED_CHARS)
                    || out.text().contains("over the processing cap of " + Compressor.MAX_PROCESSED_CHARS), out.text());
            int footer = out.text().indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
            String head = footer >= 0 ? out.text().substring(0, footer) : out.text().substring(0, out.text().indexOf("\n---\n["));
            assertTrue(head.length() > 0 && raw.startsWith(head), "the head is the raw text, not cleaned");
            assertEquals(max == 8000 ? "oversized_progressive" : "oversized_truncate", out.path());
            StoredResult stored = store.get(out.resultKey()).orElseThrow();
            assertEquals(raw, stored.original());
            StringBuilder all = new StringBuilder();
            for (Section s : stored.sections()) all.append(raw, s.start(), s.end());
            assertEquals(raw, all.toString(), "the sections cover the original");
            assertTrue(stored.sections().size() > 1000, "paragraph-sized sections, not the markdown headings");
        }
    }
}
