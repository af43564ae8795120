package dev.engram.proxy.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a text into sections that cover it exactly: concatenating every section in order gives
 * the text back byte for byte, which is what makes selective and hybrid results lossless. Markdown
 * with at least two headings splits at headings (never inside a ``` block); anything else splits
 * into groups of paragraphs, then lines, then fixed runs, of about {@link #TARGET_CHARS}.
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
        while (start < text.length()) {
            int end = cut(text, start);
            out.add(new Section("s" + n++, titleAt(text, start), start, end));
            start = end;
        }
        return out;
    }

    /** End of the section starting at {@code start}: a paragraph, else a line, else a hard break. */
    private static int cut(String text, int start) {
        int limit = Math.min(text.length(), start + TARGET_CHARS);
        if (limit == text.length()) return limit;
        int para = text.lastIndexOf("\n\n", limit);
        if (para > start + TARGET_CHARS / 4) return para + 2;
        int line = text.lastIndexOf('\n', limit);
        if (line > start + TARGET_CHARS / 4) return line + 1;
        return limit;
    }

    private static String titleAt(String text, int start) {
        int nl = text.indexOf('\n', start);
        String line = text.substring(start, nl < 0 ? text.length() : nl).strip();
        line = line.replaceFirst("^#{1,6}\\s+", "");
        return line.length() > 60 ? line.substring(0, 60) + "…" : line;
    }
}
