package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.render.TokenEstimate;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every native tool against the real engine on in-memory fakes; each structured answer must satisfy
 * the tool's own output schema (the SDK rejects it otherwise).
 */
class EngineBackedToolsTest {
    private ToolProfile profile;

    @BeforeEach
    void setUp() {
        profile = TestEngines.nativeProfile(Clock.systemUTC());
    }

    private CallToolResult call(String name, Map<String, Object> args) {
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals(name)).findFirst().orElseThrow();
        CallToolResult r = ToolAdapter.call(h, args);
        assertFalse(r.isError(), name + ": " + text(r));
        ValidationResponse v = McpJsonDefaults.getSchemaValidator().validate(h.definition().outputSchema(),
                r.structuredContent());
        assertTrue(v.valid(), name + " output does not match its schema: " + v.errorMessage());
        return r;
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    @Test
    void recallsTokenBudgetPricesTheEntriesItsTextPrints() {
        for (int i = 0; i < 12; i++) {
            call("remember", Map.of("content", "Deploy step " + i + " runs the release script with extra checks " + "x".repeat(i * 7),
                    "type", "procedure", "key", "deploy-" + i, "tags", List.of("deploy", "release")));
        }
        call("pin", Map.of("key", "deploy-3", "priority", 2));
        CallToolResult r = call("recall", Map.of("query", "deploy release script", "budget_tokens", 150, "explain", true));
        String printed = text(r);
        int n = ((List<?>) structured(r).get("results")).size();
        assertTrue(n > 0 && printed.contains("cut by token budget"), printed);
        String[] entries = printed.substring(0, printed.lastIndexOf("\n\n" + n + " of ")).split("\n\n");
        assertEquals(n, entries.length, printed);
        int sum = 0;
        for (String e : entries) sum += TokenEstimate.of(e);
        assertEquals(sum, structured(r).get("tokens"), printed);
        assertTrue(sum <= 150, printed);
        assertTrue(printed.contains("~" + sum + " tokens"), printed);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRememberRecordsTheCallersSessionAndBranch() {
        ToolHandler remember = profile.tools().stream().filter(t -> t.definition().name().equals("remember")).findFirst().orElseThrow();
        CallToolResult r = ToolAdapter.call(remember, Map.of("content", "Sessions are recorded on writes", "key", "provenance"),
                new Caller("claude-code/s-1", "feature/x"));
        assertFalse(r.isError(), text(r));
        Map<String, Object> center = (Map<String, Object>) structured(call("explore", Map.of("key", "provenance"))).get("center");
        assertEquals("claude-code/s-1", center.get("session"));
        assertEquals("feature/x", center.get("branch"));
        call("remember", Map.of("content", "A call without a session records none", "key", "anonymous"));
        center = (Map<String, Object>) structured(call("explore", Map.of("key", "anonymous"))).get("center");
        assertNull(center.get("session"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theWholeToolSetWorksEndToEnd() {
        Map<String, Object> a = structured(call("remember", Map.of("content",
                "Redis calls time out under load because the pool has 8 connections", "type", "error",
                "key", "redis-timeout", "tags", List.of("redis"))));
        assertEquals("redis-timeout", a.get("key"));
        assertEquals("created", a.get("outcome"));
        assertNotNull(a.get("quality_parts"));
        call("remember", Map.of("content", "Raise the Redis pool to 64 connections to stop the timeouts",
                "type", "decision", "key", "redis-pool-64", "links", "resolved_by:redis-timeout"));

        CallToolResult recall = call("recall", Map.of("query", "redis timeout", "explain", true));
        List<Map<String, Object>> results = (List<Map<String, Object>>) structured(recall).get("results");
        assertFalse(results.isEmpty());
        assertTrue(results.stream().anyMatch(r -> r.get("key").equals("redis-timeout")));
        assertTrue(text(recall).contains("redis-timeout ("), text(recall));

        CallToolResult index = call("recall", Map.of("mode", "index"));
        assertEquals("index", structured(index).get("mode"));
        assertTrue(text(index).lines().anyMatch(l -> l.startsWith("redis-pool-64 m_")), text(index));

        Map<String, Object> amended = structured(call("amend", Map.of("key", "redis-pool-64",
                "content", "Raise the Redis pool to 128 connections to stop the timeouts")));
        assertEquals(1, ((List<?>) amended.get("history")).size());

        call("link", Map.of("from", "redis-pool-64", "to", "redis-timeout", "type", "depends_on"));
        Map<String, Object> explored = structured(call("explore", Map.of("key", "redis-timeout", "hops", 2)));
        assertFalse(((List<?>) explored.get("neighbours")).isEmpty());

        assertEquals(true, structured(call("pin", Map.of("key", "redis-timeout", "priority", 2))).get("pinned"));
        assertEquals(false, structured(call("pin", Map.of("key", "redis-timeout", "action", "unpin"))).get("pinned"));

        assertTrue(((Number) structured(call("stats", Map.of())).get("total")).longValue() >= 2);
        assertTrue(text(call("context", Map.of("task", "fix redis timeouts"))).startsWith("# Engram briefing"));

        assertEquals("archived", structured(call("forget", Map.of("key", "redis-pool-64"))).get("status"));
        assertEquals("active", structured(call("forget", Map.of("key", "redis-pool-64", "action", "restore"))).get("status"));
    }

    @Test
    void unknownKeysAreUserErrors() {
        ToolHandler forget = profile.tools().stream().filter(t -> t.definition().name().equals("forget")).findFirst()
                .orElseThrow();
        CallToolResult r = ToolAdapter.call(forget, Map.of("key", "no-such-key"));
        assertTrue(r.isError());
        assertTrue(text(r).startsWith("no memory with id or key 'no-such-key'"), text(r));
    }

    /** Issue 14 item 3: ids alone fetch, as toon-memory does, in an array or one separated string. */
    @Test
    @SuppressWarnings("unchecked")
    void idsWithoutAModeFetchThoseMemories() {
        call("remember", Map.of("content", "The build cache lives on the NFS share", "key", "build-cache"));
        call("remember", Map.of("content", "Staging resets every Sunday night", "key", "staging-reset"));
        for (Object ids : List.of(List.of("build-cache"), "build-cache", "build-cache staging-reset",
                "build-cache,staging-reset", "build-cache; staging-reset")) {
            Map<String, Object> r = structured(call("recall", Map.of("ids", ids)));
            assertEquals("ids", r.get("mode"), String.valueOf(ids));
            List<Map<String, Object>> results = (List<Map<String, Object>>) r.get("results");
            assertEquals("build-cache", results.get(0).get("key"), String.valueOf(ids));
            int expected = ids instanceof String s && (s.contains(" ") || s.contains(",")) ? 2 : 1;
            assertEquals(expected, results.size(), String.valueOf(ids));
        }
        ToolHandler recall = profile.tools().stream().filter(t -> t.definition().name().equals("recall")).findFirst()
                .orElseThrow();
        CallToolResult both = ToolAdapter.call(recall, Map.of("ids", List.of("build-cache"), "mode", "ranked", "query", "x"));
        assertTrue(both.isError());
        assertTrue(text(both).startsWith("ids is only read in mode 'ids'"), text(both));
        CallToolResult wrongType = ToolAdapter.call(recall, Map.of("ids", 5));
        assertTrue(wrongType.isError());
        assertTrue(text(wrongType).startsWith("ids must be"), text(wrongType));
    }

    /** An erase with no undo is not an agent's tool: forget refuses action purge and says who can. */
    @Test
    void forgetDoesNotOfferPurgeToAgents() {
        call("remember", Map.of("content", "Kept because purge is refused", "key", "kept"));
        ToolHandler forget = profile.tools().stream().filter(t -> t.definition().name().equals("forget")).findFirst()
                .orElseThrow();
        CallToolResult r = ToolAdapter.call(forget, Map.of("key", "kept", "action", "purge"));
        assertTrue(r.isError());
        assertTrue(text(r).contains("engram forget KEY --purge"), text(r));
        assertFalse(((List<?>) structured(call("recall", Map.of("ids", "kept"))).get("results")).isEmpty());
    }

    /** pin's description says 5 leads: the ordering must agree (it said 1 was the highest while 5 led). */
    @Test
    @SuppressWarnings("unchecked")
    void aHigherPinPriorityLeads() {
        call("remember", Map.of("content", "Low priority pinned note about caching", "key", "low"));
        call("remember", Map.of("content", "High priority pinned note about caching", "key", "high"));
        call("pin", Map.of("key", "low", "priority", 1));
        call("pin", Map.of("key", "high", "priority", 5));
        List<Map<String, Object>> results = (List<Map<String, Object>>) structured(call("recall",
                Map.of("query", "caching note"))).get("results");
        assertEquals(List.of("high", "low"), results.stream().limit(2).map(r -> r.get("key")).toList());
        ToolHandler pin = profile.tools().stream().filter(t -> t.definition().name().equals("pin")).findFirst().orElseThrow();
        assertTrue(pin.definition().inputSchema().toString().contains("5 leads"));
    }
}
