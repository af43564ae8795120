package dev.engram.mcp.tool;

import java.util.Map;
import java.util.Objects;

/**
 * A successful tool answer: readable text for the model and the same data as structured JSON.
 * {@code meta} is the result's {@code _meta} (null: none), e.g. an MCP Apps tool's {@code ui.resourceUri}.
 */
public record ToolReply(String text, Map<String, Object> structured, Map<String, Object> meta) {
    public ToolReply {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(structured, "structured");
        meta = meta == null ? null : Map.copyOf(meta);
    }

    public ToolReply(String text, Map<String, Object> structured) {
        this(text, structured, null);
    }
}
