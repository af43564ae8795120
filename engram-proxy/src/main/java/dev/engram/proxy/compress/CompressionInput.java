package dev.engram.proxy.compress;

import java.util.List;

/**
 * What a strategy works from: the upstream's text ({@code raw}, what follow-ups give back), the
 * cleaned text (what views show), the character budget for the whole answer including footers,
 * the key under which {@code raw} is stored, its sections and, when the text is JSON, the parsed value.
 */
public record CompressionInput(String raw, String cleaned, int budget, String key, List<Section> sections,
                               Object json) {
    public CompressionInput {
        sections = List.copyOf(sections);
    }
}
