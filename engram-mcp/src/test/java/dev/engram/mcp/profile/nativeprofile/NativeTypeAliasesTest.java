package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: the type aliases left the core model, and the native profile keeps accepting them through
 * its explicit table, so a native user sees no change.
 */
class NativeTypeAliasesTest {
    private final ToolProfile profile = TestEngines.nativeProfile(Clock.systemUTC());

    private CallToolResult call(String name, Map<String, Object> args) {
        return ToolAdapter.call(profile.tools().stream().filter(t -> t.definition().name().equals(name))
                .findFirst().orElseThrow(), args);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void rememberWithTypeBugStoresAnError() {
        CallToolResult r = call("remember", Map.of("content", "The build fails when JAVA_HOME points at a JRE",
                "key", "jre-build", "type", "bug"));
        assertFalse(r.isError(), text(r));
        assertEquals("error", structured(r).get("type"));
        assertTrue(text(r).startsWith("created error/jre-build"), text(r));
        CallToolResult convention = call("remember", Map.of("content", "Tests are named after the behaviour",
                "key", "test-names", "type", "convention"));
        assertEquals("pattern", structured(convention).get("type"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void recallFiltersByAnAliasAsByItsType() {
        call("remember", Map.of("content", "The build fails when JAVA_HOME points at a JRE", "key", "jre-build",
                "type", "error"));
        call("remember", Map.of("content", "The build uses Maven with JAVA_HOME set", "key", "maven-build"));
        CallToolResult r = call("recall", Map.of("query", "build JAVA_HOME", "types", List.of("bug")));
        assertFalse(r.isError(), text(r));
        List<Map<String, Object>> results = (List<Map<String, Object>>) structured(r).get("results");
        assertEquals(List.of("jre-build"), results.stream().map(m -> m.get("key")).toList());
    }

    @Test
    void anUnknownWordIsStillRefusedWithTheWireNames() {
        CallToolResult r = call("remember", Map.of("content", "Something", "type", "thought"));
        assertTrue(r.isError());
        assertTrue(text(r).contains("'thought' is not a known type; send one of decision, pattern, error"), text(r));
    }
}
