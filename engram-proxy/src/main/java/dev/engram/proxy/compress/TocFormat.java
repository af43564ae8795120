package dev.engram.proxy.compress;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/**
 * How a table of contents is written: memtomem-stm's JSON ({@code {"type": "toc", "selection_key",
 * "entries": [...]}}, {@link JsonToc}), which scripts written for STM parse, or Engram's text list
 * ({@code - s3 "title" (812 chars): preview}, {@link TableOfContents}), which costs fewer tokens.
 * {@link #DEFAULT}: selective answers in JSON (the whole answer is the TOC, so a script reads it as
 * STM's), hybrid and progressive views list the rest as text (docs/benchmarks.md §8 measured both).
 */
public enum TocFormat {
    JSON, TEXT;

    /** The setting's name: {@code ENGRAM_PROXY_TOC_FORMAT} (or {@code MEMTOMEM_STM_TOC_FORMAT}). */
    public static final String SETTING = "TOC_FORMAT";

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TocFormat parse(String field, String value) {
        for (TocFormat f : values()) if (f.id().equalsIgnoreCase(value.strip())) return f;
        throw new InvalidArgumentException(field, "must be json or text, got '" + value + "'");
    }

    /**
     * Which form each strategy writes: {@code selective} for the selective answer, {@code views} for the
     * list under a hybrid head or a progressive chunk.
     */
    public record Choice(TocFormat selective, TocFormat views) {
        public static final Choice DEFAULT = new Choice(JSON, TEXT);

        /** One form everywhere, as {@code toc_format} asks. */
        public static Choice all(TocFormat f) {
            return new Choice(f, f);
        }
    }
}
