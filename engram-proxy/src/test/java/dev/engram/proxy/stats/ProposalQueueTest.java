package dev.engram.proxy.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.proxy.tools.MemoryProposeTool;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProposalQueueTest {
    @TempDir
    Path dir;
    private final AtomicInteger ids = new AtomicInteger();

    @Test
    void aRetriedProposalWithTheSameKeyIsNotQueuedTwice() {
        try (ProposalQueue q = new ProposalQueue(dir, Clock.systemUTC(), () -> "" + ids.incrementAndGet())) {
            String a = q.propose("Deploys freeze on Fridays.", "fs__read docs/deploy.md", "k1");
            assertEquals(a, q.propose("Deploys freeze on Fridays.", null, "k1"));
            q.propose("Another fact.", null, null);
            assertEquals(2, q.pending().size());
            q.resolve(a, "accepted");
            assertEquals(1, q.pending().size());
            assertTrue(q.pendingContent(a).isEmpty(), "an accepted proposal is no longer pending");
        }
    }

    @Test
    void theToolRefusesOverlongContentAndNeverStoresDirectly() {
        try (ProposalQueue q = new ProposalQueue(dir, Clock.systemUTC(), () -> "" + ids.incrementAndGet())) {
            MemoryProposeTool tool = new MemoryProposeTool(q);
            CallToolResult tooLong = ToolAdapter.call(tool, Map.of("content", "x".repeat(2001)));
            assertTrue(tooLong.isError());
            assertTrue(tooLong.content().toString().contains("over 2000"), tooLong.content().toString());
            CallToolResult ok = ToolAdapter.call(tool, Map.of("content", "Deploys freeze on Fridays."));
            assertEquals("pending_review", ((Map<?, ?>) ok.structuredContent()).get("status"));
        }
    }
}
