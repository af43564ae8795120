package dev.engram.mcp.tool;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A successful tool answer: readable text for the model and the same data as structured JSON.
 * {@code meta} is the result's {@code _meta} (null: none), e.g. an MCP Apps tool's {@code ui.resourceUri}.
 * {@code notes} are the server's own words for the agent about this answer (none, usually), each sent as a
 * text block after {@code text}: the first block and the structured content stay exactly what the tool's
 * original sends, so clients that parse them, or validate them against the output schema, see no change.
 */
public record ToolReply(String text, Map<String, Object> structured, Map<String, Object> meta, List<String> notes) {
    public ToolReply {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(structured, "structured");
        meta = meta == null ? null : Map.copyOf(meta);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public ToolReply(String text, Map<String, Object> structured, Map<String, Object> meta) {
        this(text, structured, meta, List.of());
    }

    public ToolReply(String text, Map<String, Object> structured) {
        this(text, structured, null);
    }

    /** The same answer with one more note. */
    public ToolReply withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(Objects.requireNonNull(note, "note"));
        return new ToolReply(text, structured, meta, more);
    }
}
