package dev.engram.proxy.pipeline;

import java.util.Objects;

/**
 * What flows through the stages: the upstream's text ({@code raw}, never changed), the current
 * text, and what the stages recorded: the strategy path, the key of the stored original, the
 * surfacing id. Immutable; stages return modified copies.
 */
public record PipelineText(String raw, String text, String path, String resultKey, String surfacingId) {
    public PipelineText {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(text, "text");
        path = path == null ? "" : path;
    }

    public static PipelineText of(String raw) {
        return new PipelineText(raw, raw, "", null, null);
    }

    public PipelineText withText(String newText) {
        return new PipelineText(raw, newText, path, resultKey, surfacingId);
    }

    public PipelineText compressed(String newText, String strategyPath, String key) {
        return new PipelineText(raw, newText, strategyPath, key, surfacingId);
    }

    public PipelineText surfaced(String newText, String id) {
        return new PipelineText(raw, newText, path, resultKey, id);
    }

    /** True when the agent gets exactly what the upstream sent. */
    public boolean untouched() {
        return text.equals(raw);
    }
}
