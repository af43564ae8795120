package dev.engram.proxy.compress;

import java.util.List;

/**
 * What a strategy works from: the upstream's text ({@code raw}, what follow-ups give back), the
 * cleaned text (what views show), the character budget for the whole answer including footers,
 * the key under which {@code raw} is stored, its sections and, when the text is JSON, the parsed value.
 * {@code contextQuery} is the agent's {@code _context_query} (null without one) and {@code focus} the
 * sections that match it, best first
 * ({@link SectionRanker}); empty without a query, or when nothing matches it, and then every view is
 * what it is without one.
 */
public record CompressionInput(String raw, String cleaned, int budget, String key, List<Section> sections,
                               Object json, String contextQuery, List<SectionRanker.Ranked> focus) {
    public CompressionInput {
        sections = List.copyOf(sections);
        focus = focus == null ? List.of() : List.copyOf(focus);
    }

    public CompressionInput(String raw, String cleaned, int budget, String key, List<Section> sections, Object json) {
        this(raw, cleaned, budget, key, sections, json, null, List.of());
    }

    public boolean focused() {
        return !focus.isEmpty();
    }

    /** This input with another budget (a note takes part of it). */
    CompressionInput withBudget(int budget) {
        return new CompressionInput(raw, cleaned, budget, key, sections, json, contextQuery, focus);
    }
}
