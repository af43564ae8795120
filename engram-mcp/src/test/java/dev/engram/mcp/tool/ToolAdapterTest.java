package dev.engram.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.NotFoundException;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ToolAdapterTest {
    private static ToolHandler handler(Function<ToolArgs, ToolReply> body) {
        Tool tool = Tool.builder("probe", JsonSchema.input().string("key", "Key", "k").build()).description("d").build();
        return new ToolHandler() {
            @Override
            public Tool definition() {
                return tool;
            }

            @Override
            public ToolReply call(ToolArgs args) {
                return body.apply(args);
            }
        };
    }

    private static ToolHandler hinted(io.modelcontextprotocol.spec.McpSchema.ToolAnnotations hints) {
        Tool tool = Tool.builder("probe", JsonSchema.input().string("key", "Key", "k").build()).description("d")
                .annotations(hints).build();
        return new ToolHandler() {
            @Override
            public Tool definition() {
                return tool;
            }

            @Override
            public ToolReply call(ToolArgs args) {
                return new ToolReply("ok", Map.of());
            }
        };
    }

    @Test
    void onlyToolsThatWriteReadTheBranchAndEveryToolGetsTheSession(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir.resolve(".git"));
        java.nio.file.Files.writeString(dir.resolve(".git/HEAD"), "ref: refs/heads/feature/speed\n");
        ProjectBranch project = new ProjectBranch(dir);

        Caller writer = ToolAdapter.caller("claude-code", "s1", hinted(ToolHints.writes(false)), project);
        assertEquals(new Caller("claude-code/s1", "feature/speed", "claude-code"), writer);
        Caller unhinted = ToolAdapter.caller("claude-code", "s1", handler(a -> null), project);
        assertEquals("feature/speed", unhinted.branch()); // no hints: it may write, so it records the branch
        Caller reader = ToolAdapter.caller("claude-code", "s1", hinted(ToolHints.readOnly()), project);
        assertEquals(new Caller("claude-code/s1", null, "claude-code"), reader);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void successCarriesTextAndStructuredContent() {
        CallToolResult r = ToolAdapter.call(handler(a -> new ToolReply("hi " + a.text("key"), Map.of("key", a.text("key")))),
                Map.of("key", "k1"));
        assertFalse(r.isError());
        assertEquals("hi k1", text(r));
        assertEquals(Map.of("key", "k1"), r.structuredContent());
    }

    @Test
    void userErrorBecomesAnErrorResultWithItsMessage() {
        CallToolResult r = ToolAdapter.call(handler(a -> {
            throw NotFoundException.memory("nope", "default");
        }), Map.of());
        assertTrue(r.isError());
        assertEquals("no memory with id or key 'nope' in zone 'default'; call recall with mode 'index' to list keys and ids",
                text(r));
        assertNull(r.structuredContent());
    }

    @Test
    void argumentErrorsAreUserErrors() {
        CallToolResult r = ToolAdapter.call(handler(a -> new ToolReply(a.text("key"), Map.of())), Map.of("key", 5));
        assertTrue(r.isError());
        assertEquals("key must be a string, got number 5 (e.g. \"key\": \"k\")", text(r));
    }

    @Test
    void internalFailureGivesAGenericLineWithARefAndNoTrace() {
        ToolHandler failing = handler(a -> {
            throw new IllegalStateException("database is locked at org.sqlite.Core");
        });
        CallToolResult r = ToolAdapter.call(failing, Map.of());
        assertTrue(r.isError());
        assertTrue(text(r).matches("probe failed inside the server \\(ref [0-9a-z]{6}\\)"), text(r));
        // the adapter keeps serving: the next call is answered normally
        CallToolResult next = ToolAdapter.call(handler(a -> new ToolReply("ok", Map.of())), Map.of());
        assertFalse(next.isError());
    }

    /** A runaway recursion must cost one call, not the session: the SDK leaves an uncaught Error unanswered. */
    @Test
    void aStackOverflowIsAnsweredLikeAnyInternalFailure() {
        CallToolResult r = ToolAdapter.call(handler(a -> new ToolReply(String.valueOf(depth(0)), Map.of())), Map.of());
        assertTrue(r.isError());
        assertTrue(text(r).matches("probe failed inside the server \\(ref [0-9a-z]{6}\\)"), text(r));
    }

    private static int depth(int n) {
        return depth(n + 1) + 1;
    }

    @Test
    void refsDiffer() {
        assertFalse(ToolAdapter.newRef().equals(ToolAdapter.newRef()) && ToolAdapter.newRef().equals(ToolAdapter.newRef()));
    }
}
