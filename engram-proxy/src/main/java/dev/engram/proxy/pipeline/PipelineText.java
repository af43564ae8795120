package dev.engram.proxy.pipeline;

import java.util.Objects;

/**
 * What flows through the stages: the upstream's text ({@code raw}, never changed), the current
 * text, and what the stages recorded: the strategy path, the key of the stored original, the
 * surfacing id and the memory block appended to the text ({@code memories}, null when none), so the
 * answer can carry the block in a content item of its own instead. Immutable; stages return modified copies.
 */
public record PipelineText(String raw, String text, String path, String resultKey, String surfacingId, String memories) {
    public PipelineText {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(text, "text");
        path = path == null ? "" : path;
        if (memories != null && !text.endsWith(memories)) throw new IllegalArgumentException("the memory block ends the text");
    }

    public PipelineText(String raw, String text, String path, String resultKey, String surfacingId) {
        this(raw, text, path, resultKey, surfacingId, null);
    }

    /** The text without the memory block: the result's view. */
    public String view() {
        return memories == null ? text : text.substring(0, text.length() - memories.length());
    }

    public static PipelineText of(String raw) {
        return new PipelineText(raw, raw, "", null, null);
    }

    public PipelineText withText(String newText) {
        return new PipelineText(raw, newText, path, resultKey, surfacingId, null);
    }

    public PipelineText compressed(String newText, String strategyPath, String key) {
        return new PipelineText(raw, newText, strategyPath, key, surfacingId, null);
    }

    public PipelineText surfaced(String newText, String id) {
        return new PipelineText(raw, newText, path, resultKey, id, null);
    }

    /** The text with {@code block} (the memories) appended; the block is remembered as such. */
    public PipelineText withMemories(String block, String id) {
        return new PipelineText(raw, text + block, path, resultKey, id, block);
    }

    /** True when the agent gets exactly what the upstream sent. */
    public boolean untouched() {
        return text.equals(raw);
    }
}
