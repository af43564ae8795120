package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import java.util.List;

/**
 * Cuts a stored original into consecutive chunks. A chunk ends at a paragraph break, else a line
 * break, else a space, found in the last 20% of its span, so a chunk rarely ends mid-word. The
 * chunk text before {@link Footers#PROGRESSIVE_FOOTER_TOKEN} is exactly {@code original[from, to)}.
 */
public final class ProgressiveChunks {
    /** memtomem-stm's chunk_size: about 1,100 tokens per follow-up. */
    public static final int DEFAULT_CHUNK_CHARS = 4000;

    private ProgressiveChunks() {
    }

    public static String chunk(StoredResult stored, int offset, int limit) {
        String text = stored.original();
        // an offset inside a surrogate pair starts at its first half: the chunk stays valid Unicode
        int from = TextCut.atCodePoint(text, offset);
        int to = boundary(text, from, limit);
        List<String> remaining = stored.sections().stream().filter(s -> s.start() >= to).map(Section::title).toList();
        return text.substring(from, to) + Footers.progressive(stored.key(), from, to, text.length(), remaining);
    }

    static int boundary(String text, int from, int limit) {
        int cut = rawBoundary(text, from, limit);
        // never split a surrogate pair: each chunk must be valid UTF-16 to survive JSON; a limit of one
        // char that falls inside a pair takes the whole pair, so a chunk always makes progress
        int safe = TextCut.atCodePoint(text, cut);
        return safe > from ? safe : Math.min(text.length(), cut + 1);
    }

    private static int rawBoundary(String text, int from, int limit) {
        int end = Math.min(text.length(), from + Math.max(1, limit));
        if (end == text.length()) return end;
        int floor = end - Math.max(1, (end - from) / 5);
        // searches stop at the floor: unbounded, each ran back to offset 0 in a text without breaks,
        // so reading a large original chunk by chunk was quadratic
        int para = Sections.lastParagraph(text, end - 2, floor - 1);
        if (para >= floor) return para + 2;
        int line = Sections.lastIndexAbove(text, '\n', end - 1, floor - 1);
        if (line >= floor) return line + 1;
        int space = Sections.lastIndexAbove(text, ' ', end - 1, floor - 1);
        if (space >= floor) return space + 1;
        return end;
    }
}
