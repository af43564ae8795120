package dev.engram.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/**
 * The behaviour hints clients show users before a call; Engram never reaches outside its store.
 * No title here: the tool's own title says it, and every repeated byte costs tokens in every turn.
 */
public final class ToolHints {
    private ToolHints() {
    }

    /** Whether the tool says it only reads (its readOnlyHint); a tool without hints may write. */
    public static boolean isReadOnly(ToolHandler handler) {
        var hints = handler.definition().annotations();
        return hints != null && Boolean.TRUE.equals(hints.readOnlyHint());
    }

    public static ToolAnnotations readOnly() {
        return of(true, false, true);
    }

    public static ToolAnnotations writes(boolean idempotent) {
        return of(false, false, idempotent);
    }

    public static ToolAnnotations destructive(boolean idempotent) {
        return of(false, true, idempotent);
    }

    private static ToolAnnotations of(boolean readOnly, boolean destructive, boolean idempotent) {
        return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive)
                .idempotentHint(idempotent).openWorldHint(false).build();
    }
}
