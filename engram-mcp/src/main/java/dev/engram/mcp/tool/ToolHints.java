package dev.engram.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/** The behaviour hints clients show users before a call; Engram never reaches outside its store. */
public final class ToolHints {
    private ToolHints() {
    }

    public static ToolAnnotations readOnly(String title) {
        return of(title, true, false, true);
    }

    public static ToolAnnotations writes(String title, boolean idempotent) {
        return of(title, false, false, idempotent);
    }

    public static ToolAnnotations destructive(String title, boolean idempotent) {
        return of(title, false, true, idempotent);
    }

    private static ToolAnnotations of(String title, boolean readOnly, boolean destructive, boolean idempotent) {
        return ToolAnnotations.builder().title(title).readOnlyHint(readOnly).destructiveHint(destructive)
                .idempotentHint(idempotent).openWorldHint(false).build();
    }
}
