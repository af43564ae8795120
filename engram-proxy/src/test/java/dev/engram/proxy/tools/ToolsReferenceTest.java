package dev.engram.proxy.tools;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.proxy.MutableClock;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.ThresholdTuner;
import dev.engram.proxy.config.SurfacingSettings;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/proxy.md is checked against the code (R14): every tool and admin action is documented. */
class ToolsReferenceTest {
    @TempDir
    Path dir;

    @Test
    void docsNameEveryProxyToolAndAdminAction() throws Exception {
        String doc = Files.readString(Path.of("../docs/proxy.md"));
        for (String name : ProxyToolNames.ALL) assertTrue(doc.contains("`" + name + "`"), name + " missing from docs/proxy.md");
        for (String action : AdminTool.ACTIONS.keySet()) assertTrue(doc.contains("`" + action + "`"), action + " missing");
    }

    @Test
    void surfacingFeedbackTakesOneRatingOrABatchButNotBoth() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (ProxyStats stats = new ProxyStats(dir, clock)) {
            SurfacingSettings s = SurfacingSettings.defaults();
            Surfacer surfacer = new Surfacer(s, (q, n) -> List.of(), clock, new ThresholdTuner(s, stats), stats, () -> "x");
            stats.recordSurfacing("ev1", "fs", "read", List.of("m_1", "m_2"));
            SurfacingFeedbackTool tool = new SurfacingFeedbackTool(stats, surfacer);
            CallToolResult batch = ToolAdapter.call(tool, Map.of("surfacing_id", "ev1", "ratings", List.of(
                    Map.of("memory_id", "m_1", "rating", "helpful"), Map.of("memory_id", "m_2", "rating", "not_relevant"))));
            assertTrue(!batch.isError(), batch.content().toString());
            CallToolResult both = ToolAdapter.call(tool, Map.of("surfacing_id", "ev1", "rating", "helpful",
                    "ratings", List.of(Map.of("memory_id", "m_1", "rating", "helpful"))));
            assertTrue(both.isError());
            CallToolResult stranger = ToolAdapter.call(tool, Map.of("surfacing_id", "ev1", "rating", "helpful", "memory_id", "m_9"));
            assertTrue(stranger.isError() && stranger.content().toString().contains("was not surfaced in ev1"));
            assertTrue(stats.feedbackByRating().size() == 2, "only the valid batch was recorded: " + stats.feedbackByRating());
            surfacer.close();
        }
    }
}
