package dev.engram.mcp.profile.memento;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** reconstruct_history: a case told from its fragments and their caused_by / resolved_by links, in time order. */
class MementoHistoryTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), clock);

    private CallToolResult call(String tool, Object... kv) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) args.put((String) kv[i], kv[i + 1]);
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String tool, Object... kv) {
        CallToolResult r = call(tool, kv);
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + ((TextContent) r.content().get(0)).text());
        return (Map<String, Object>) r.structuredContent();
    }

    private String error(String tool, Object... kv) {
        CallToolResult r = call(tool, kv);
        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " should fail");
        return ((TextContent) r.content().get(0)).text();
    }

    private String remember(String content, String type, Object... more) {
        clock.advance(Duration.ofMinutes(5));
        Object[] kv = new Object[6 + more.length];
        kv[0] = "content"; kv[1] = content; kv[2] = "topic"; kv[3] = "redis"; kv[4] = "type"; kv[5] = type;
        System.arraycopy(more, 0, kv, 6, more.length);
        return (String) ok("remember", kv).get("id");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> r, String field) {
        return (List<Map<String, Object>>) r.get(field);
    }

    private static List<Object> ids(List<Map<String, Object>> fragments) {
        return fragments.stream().map(f -> f.get("id")).toList();
    }

    @Test
    void aCaseIsToldInTimeOrderWithItsChainsAndWhatIsStillOpen() {
        String error = remember("Workers fail with NOAUTH after the deploy", "error", "caseId", "outage-12", "resolutionStatus", "open");
        String cause = remember("REDIS_PASSWORD was empty in the new .env", "fact", "caseId", "outage-12");
        String fix = remember("Set REDIS_PASSWORD in .env and restart the workers", "procedure", "caseId", "outage-12",
                "resolutionStatus", "resolved");
        String question = remember("Why did the deploy script drop the variable?", "fact", "caseId", "outage-12",
                "resolutionStatus", "open");
        remember("Redis runs version 7.2", "fact", "caseId", "other-case");
        ok("link", "fromId", error, "toId", cause, "relationType", "caused_by");
        ok("link", "fromId", error, "toId", fix, "relationType", "resolved_by");

        Map<String, Object> h = ok("reconstruct_history", "caseId", "outage-12");
        assertEquals(List.of(error, cause, fix, question), ids(list(h, "ordered_timeline")));
        assertEquals("outage-12", list(h, "ordered_timeline").get(0).get("case_id"));
        assertEquals("open", list(h, "ordered_timeline").get(0).get("resolution_status"));
        List<Map<String, Object>> chains = list(h, "causal_chains");
        assertEquals(1, chains.size(), chains.toString());
        assertEquals(error, chains.get(0).get("root_id"));
        assertEquals(3, chains.get(0).get("length"));
        assertEquals(true, chains.get(0).get("is_resolved"));
        assertEquals(List.of(question), ids(list(h, "unresolved_branches")), "the error is open but its chain is resolved");
        assertEquals(List.of(question), ids(list(h, "supporting_fragments")));
        String summary = (String) h.get("summary");
        assertTrue(summary.startsWith("4 fragments (") && summary.contains("causal chains: 1 (resolved 1, unresolved 0)")
                && summary.contains("unresolved branches: 1"), summary);

        assertEquals(5, list(ok("reconstruct_history", "entity", "REDIS"), "ordered_timeline").size(), "an entity is a topic");
        assertEquals(List.of(cause), ids(list(ok("reconstruct_history", "caseId", "outage-12", "query", "redis_password was"),
                "ordered_timeline")));
        assertEquals(List.of(error, cause), ids(list(ok("reconstruct_history", "caseId", "outage-12", "limit", 2), "ordered_timeline")));
        assertEquals(List.of(question), ids(list(ok("reconstruct_history", "caseId", "outage-12",
                "timeRange", Map.of("from", "2026-12-01T10:19:00Z")), "ordered_timeline")));
        Map<String, Object> none = ok("reconstruct_history", "caseId", "nothing-here");
        assertTrue(list(none, "ordered_timeline").isEmpty());
        assertTrue(((String) none.get("summary")).startsWith("No fragments found for case 'nothing-here'"));
    }

    @Test
    void badInputSaysWhatToSendAndWritesNothing() {
        assertTrue(error("reconstruct_history").contains("caseId or entity is required"));
        assertTrue(error("reconstruct_history", "caseId", "c", "timeRange", Map.of("since", "7d")).contains("timeRange.since is not a field"));
        assertTrue(error("reconstruct_history", "caseId", "c", "limit", 501).contains("limit"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "resolutionStatus", "done")
                .contains("is not a status; send one of open, resolved, abandoned"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "caseId", "c".repeat(101)).contains("at most 100"));
        assertEquals(0, store.count());
    }
}
