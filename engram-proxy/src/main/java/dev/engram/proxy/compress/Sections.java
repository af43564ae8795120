package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a text into sections that cover it exactly: concatenating every section in order gives
 * the text back byte for byte, which is what makes selective and hybrid results lossless. Markdown
 * with at least two headings splits at headings (never inside a ``` block); JSON between elements and
 * members ({@link JsonSections}); anything else into runs of about {@link #TARGET_CHARS} that end at
 * a paragraph, else before a record (a line that starts like the text's first line: a log's
 * {@code commit}, {@code Note 12:}), else at a line, else after a space, else anywhere but inside a
 * surrogate pair. Titles are the first line
 * without escape codes, so a table of contents of a text without headings still says where each
 * section starts.
 */
public final class Sections {
    /** About a screen of text: small enough that one selected section stays cheap. */
    public static final int TARGET_CHARS = 2000;
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})[ \\t]+(\\S.*)$");

    private Sections() {
    }

    public static List<Section> split(String text) {
        List<int[]> headings = headings(text);
        if (headings.size() >= 2) return byHeadings(text, headings);
        return JsonSections.split(text).orElseGet(() -> byParagraphs(text));
    }

    /** Sections of about {@link #TARGET_CHARS} ending at paragraphs, records or lines, whatever the text's shape. */
    static List<Section> plain(String text) {
        return byParagraphs(text);
    }

    /** Start offsets and levels of markdown heading lines outside code fences. */
    static List<int[]> headings(String text) {
        List<int[]> out = new ArrayList<>();
        boolean inFence = false;
        int pos = 0;
        while (pos < text.length()) {
            int nl = text.indexOf('\n', pos);
            int end = nl < 0 ? text.length() : nl;
            String line = text.substring(pos, end);
            if (line.stripLeading().startsWith("```")) {
                inFence = !inFence;
            } else if (!inFence) {
                Matcher m = HEADING.matcher(line);
                if (m.matches()) out.add(new int[] {pos, m.group(1).length()});
            }
            pos = end + 1;
        }
        return out;
    }

    private static List<Section> byHeadings(String text, List<int[]> headings) {
        List<Section> out = new ArrayList<>();
        int n = 1;
        if (headings.get(0)[0] > 0) {
            out.add(new Section("s" + n++, "(preamble)", 0, headings.get(0)[0]));
        }
        for (int i = 0; i < headings.size(); i++) {
            int start = headings.get(i)[0];
            int end = i + 1 < headings.size() ? headings.get(i + 1)[0] : text.length();
            out.add(new Section("s" + n++, titleAt(text, start), start, end));
        }
        return out;
    }

    private static List<Section> byParagraphs(String text) {
        List<Section> out = new ArrayList<>();
        int start = 0;
        int n = 1;
        String record = recordKey(text, 0);
        while (start < text.length()) {
            int end = cut(text, start, record);
            out.add(new Section("s" + n++, titleAt(text, start), start, end));
            start = end;
        }
        return out;
    }

    /**
     * End of the section starting at {@code start}: a paragraph, else the start of a record, else
     * a line, else a hard break. Records matter for logs without blank lines (git log --graph):
     * a section that starts at a record has that record's first line as its title.
     */
    private static int cut(String text, int start, String record) {
        int limit = Math.min(text.length(), start + TARGET_CHARS);
        if (limit == text.length()) return limit;
        int floor = start + TARGET_CHARS / 4;
        int para = lastParagraph(text, limit, floor);
        if (para > floor) return para + 2;
        if (!record.isEmpty()) {
            for (int line = lastNewline(text, limit - 1, floor); line > floor; line = lastNewline(text, line - 1, floor)) {
                if (record.equals(recordKey(text, line + 1))) return line + 1;
            }
        }
        int line = lastNewline(text, limit, floor);
        if (line > floor) return line + 1;
        // no line break near the limit (one long line, prose in a language written with spaces): a word,
        // else the limit itself, never inside a surrogate pair (TextCut)
        int space = lastIndexAbove(text, ' ', limit - 1, floor);
        if (space > floor) return space + 1;
        return TextCut.atCodePoint(text, limit);
    }

    /**
     * {@code text.lastIndexOf('\n', from)} when that is above {@code floor}, else -1. Never looks at or
     * below the floor: the unbounded search ran back to the start of the text for every section of a
     * text without line breaks, quadratic in its length.
     */
    static int lastNewline(String text, int from, int floor) {
        return lastIndexAbove(text, '\n', from, floor);
    }

    /** {@code text.lastIndexOf(c, from)} when above {@code floor}, else -1. */
    static int lastIndexAbove(String text, char c, int from, int floor) {
        for (int i = Math.min(from, text.length() - 1); i > Math.max(floor, -1); i--) {
            if (text.charAt(i) == c) return i;
        }
        return -1;
    }

    /** {@code text.lastIndexOf("\n\n", from)} when above {@code floor}, else -1 (bounded as {@link #lastNewline}). */
    static int lastParagraph(String text, int from, int floor) {
        for (int i = Math.min(from, text.length() - 2); i > Math.max(floor, -1); i--) {
            if (text.charAt(i) == '\n' && text.charAt(i + 1) == '\n') return i;
        }
        return -1;
    }

    /** End of the line starting at {@code from}, looking no further than {@code max} chars. */
    static int lineEnd(String text, int from, int max) {
        int stop = (int) Math.min(text.length(), (long) from + max);
        for (int i = from; i < stop; i++) {
            if (text.charAt(i) == '\n') return i;
        }
        return stop;
    }

    /**
     * What a line starts with, for telling record starts: its first word after escape codes and
     * graph or list marks ({@code * | / \ - >}), digits folded to 9; "" when it has none.
     */
    static String recordKey(String text, int lineStart) {
        // bounded: indexOf ran to the end of a text without line breaks, once per candidate line
        String line = TextCleaner.oneLine(text.substring(lineStart, lineEnd(text, lineStart, 200)));
        int i = 0;
        while (i < line.length() && "*|/\\->_ ".indexOf(line.charAt(i)) >= 0) i++;
        int j = i;
        while (j < line.length() && Character.isLetter(line.charAt(j))) j++;
        return line.substring(i, j);
    }

    private static String titleAt(String text, int start) {
        // a title needs 60 chars: do not clean (or even scan) a whole megabyte line to get them
        String line = TextCleaner.oneLine(text.substring(start, lineEnd(text, start, 400)));
        line = line.replaceFirst("^#{1,6}\\s+", "");
        return TextCut.clipAtWord(line, 60);
    }
}
