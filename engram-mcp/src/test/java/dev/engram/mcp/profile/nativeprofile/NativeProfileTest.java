package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NativeProfileTest {
    /** Argument checks must finish before the engine is reached: this one fails the test if it is. */
    private static final Supplier<Engine> UNREACHABLE = () -> {
        throw new AssertionError("the engine was reached before the arguments were checked");
    };

    private final ToolProfile profile = NativeProfile.create(
            new ProfileContext(UNREACHABLE, "default"), JsonText.standard());

    private Tool tool(String name) {
        return profile.tools().stream().map(ToolHandler::definition).filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void exactlyTheNineNativeTools() {
        assertEquals(List.of("remember", "recall", "forget", "amend", "link", "explore", "pin", "stats", "context"),
                profile.tools().stream().map(h -> h.definition().name()).toList());
    }

    @Test
    void everySchemaIsValidJsonSchemaAndEveryInputPropertyIsDescribed() {
        for (ToolHandler h : profile.tools()) {
            Tool t = h.definition();
            McpJsonDefaults.getSchemaValidator().assertConforms(t.name() + " input", t.inputSchema());
            assertNotNull(t.outputSchema(), t.name());
            McpJsonDefaults.getSchemaValidator().assertConforms(t.name() + " output", t.outputSchema());
            assertEquals(false, t.inputSchema().get("additionalProperties"), t.name());
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> props = (Map<String, Map<String, Object>>) t.inputSchema().get("properties");
            props.forEach((name, p) -> assertNotNull(p.get("description"), t.name() + "." + name));
        }
    }

    @Test
    void descriptionsAreShortBecauseTheyCostTokensInEveryTurn() {
        for (ToolHandler h : profile.tools()) {
            String d = h.definition().description();
            assertTrue(d.length() <= 300, h.definition().name() + " description has " + d.length() + " chars");
        }
    }

    @ParameterizedTest
    @CsvSource({
        "remember, false, false, false", "recall, true, false, true", "forget, false, true, true",
        "amend, false, false, false", "link, false, false, true", "explore, true, false, true",
        "pin, false, false, true", "stats, true, false, true", "context, true, false, true"})
    void annotations(String name, boolean readOnly, boolean destructive, boolean idempotent) {
        ToolAnnotations a = tool(name).annotations();
        assertEquals(readOnly, a.readOnlyHint(), name + " readOnly");
        assertEquals(destructive, a.destructiveHint(), name + " destructive");
        assertEquals(idempotent, a.idempotentHint(), name + " idempotent");
        assertEquals(false, a.openWorldHint(), name + " openWorld");
    }

    @Test
    void requiredArguments() {
        assertEquals(List.of("content"), tool("remember").inputSchema().get("required"));
        assertEquals(List.of("key"), tool("forget").inputSchema().get("required"));
        assertEquals(List.of("from", "to"), tool("link").inputSchema().get("required"));
        assertFalse(tool("recall").inputSchema().containsKey("required"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "remember|{}|content is required: One self-contained fact, decision or fix, 1-3 sentences (e.g. \"content\": \"Use zod for request validation; joi was dropped\")",
        "remember|{\"content\":\"x\",\"type\":\"idea\"}|type 'idea' is not a known type; send one of decision, pattern, error, warning, preference, procedure, fact, relation, entity",
        "remember|{\"content\":\"x\",\"occurred_at\":\"yesterday\"}|occurred_at 'yesterday' is not a date; send 2026-11-29, 2026-11-29T10:00:00Z or a relative age such as 7d or 24h",
        "remember|{\"content\":\"x\",\"tags\":7}|tags must be an array of strings, got number 7 (e.g. \"tags\": [\"validation\", \"api\"])",
        "recall|{\"query\":\"x\",\"limit\":\"ten\"}|limit must be an integer, got string \"ten\" (e.g. \"limit\": 5)",
        "recall|{\"query\":\"x\",\"limit\":500}|limit must be 1..100, got 500",
        "recall|{}|query is required: a few words about what you need (or use mode 'index' to list memories, or 'ids' to fetch some)",
        "recall|{\"mode\":\"ids\"}|ids is required in mode 'ids': a list of memory ids or keys",
        "recall|{\"query\":\"x\",\"explain\":\"very\"}|explain must be a boolean, got string \"very\" (e.g. \"explain\": true)",
        "forget|{\"key\":\"k\",\"action\":\"shred\"}|action 'shred' is not an action; send soft (archive), hard (delete) or restore",
        "forget|{\"key\":\"Bad Key\"}|key 'Bad Key' is neither a memory id (m_ followed by 10 letters a-z or digits 2-7) nor a key (lowercase letters, digits, '-', '_', '.')",
        "amend|{\"key\":\"k\"}|content tags or importance: send at least one of them to amend",
        "link|{\"from\":\"a\"}|to is required: Memory id (m_...) or key (e.g. \"to\": \"redis-timeout\")",
        "link|{\"from\":\"a\",\"to\":\"b\",\"type\":\"likes\"}|type 'likes' is not an edge type; send one of related, caused_by, resolved_by, depends_on, supersedes, contradicts, observation_of, implements, blocks, references, applies_to, mentions, follows",
        "explore|{\"key\":\"k\",\"hops\":3}|hops must be 1..2, got 3",
        "pin|{\"key\":\"k\",\"priority\":9}|priority must be 1..5, got 9",
        "pin|{\"key\":\"k\",\"action\":\"stick\"}|action 'stick' is not an action; send pin or unpin",
        "context|{\"budget_tokens\":10}|budget_tokens must be 50..20000, got 10",
        "stats|{\"zones\":\"a\"}|zones is not an argument of stats (did you mean 'zone'?); it accepts: zone"})
    void badArgumentsComeBackAsErrorsNamingTheFieldWithoutReachingTheEngine(String name, String json, String expected)
            throws Exception {
        ToolHandler handler = profile.tools().stream().filter(h -> h.definition().name().equals(name)).findFirst()
                .orElseThrow();
        Map<String, Object> arguments = JsonText.standard().readObject(json);
        CallToolResult r = ToolAdapter.call(handler, arguments);
        assertTrue(r.isError(), name + " " + json);
        assertEquals(expected, ((TextContent) r.content().get(0)).text());
    }

    @Test
    void twoResources() {
        assertEquals(List.of("engram://primer", "engram://stats"),
                profile.resources().stream().map(r -> r.resource().uri()).toList());
        assertTrue(profile.instructions().contains("`context`") && profile.instructions().contains("`recall`")
                && profile.instructions().contains("`remember`"));
    }
}
