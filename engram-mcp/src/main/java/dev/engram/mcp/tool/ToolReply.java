package dev.engram.mcp.tool;

import java.util.Map;
import java.util.Objects;

/** A successful tool answer: readable text for the model and the same data as structured JSON. */
public record ToolReply(String text, Map<String, Object> structured) {
    public ToolReply {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(structured, "structured");
    }
}
