package dev.engram.proxy.compress;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * CLEAN: removes what costs tokens and carries nothing. Outside ``` code blocks it strips ANSI
 * escape sequences and {@code <script>/<style>} blocks, drops boilerplate lines (cookie banners,
 * "skip to content"), trims line ends, collapses runs of spaces inside a line (leading
 * indentation stays: it is structure in JSON, YAML and code), collapses runs of identical lines
 * into one line marked {@code [xN]}, drops a paragraph identical to an earlier one and collapses
 * blank-line runs to one. Inside code blocks nothing changes. Idempotent; never lengthens a text.
 */
public final class TextCleaner {
    private static final Pattern ANSI = Pattern.compile(
            "\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)|\u001B[@-Z\\\\-_]");
    private static final String[] BLOCK_TAGS = {"script", "style"};
    private static final Pattern BOILERPLATE = Pattern.compile("(?i)^\\s*(skip to (main )?content|accept (all )?cookies"
            + "|this (web)?site uses cookies.*|cookie (settings|preferences)|we use cookies.*"
            + "|subscribe to our newsletter.*|(©|\\(c\\)|copyright).{0,80}all rights reserved\\.?)\\s*$");
    private static final Pattern INNER_SPACES = Pattern.compile("(?<=\\S)[ \\t]{2,}(?=\\S)");
    /** Paragraphs shorter than this may repeat on purpose ("Yes", "---"); longer repeats are noise. */
    private static final int MIN_DEDUP_PARAGRAPH = 40;

    private TextCleaner() {
    }

    public static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        StringBuilder prose = new StringBuilder();
        boolean inFence = false;
        int pos = 0;
        while (pos < text.length()) {
            int nl = text.indexOf('\n', pos);
            int end = nl < 0 ? text.length() : nl + 1;
            String line = text.substring(pos, end);
            boolean fence = ANSI.matcher(line).replaceAll("").stripLeading().startsWith("```");
            if (fence && !inFence) {
                out.append(cleanProse(prose.toString()));
                prose.setLength(0);
                out.append(line);
                inFence = true;
            } else if (inFence) {
                out.append(line);
                if (fence) inFence = false;
            } else {
                prose.append(line);
            }
            pos = end;
        }
        out.append(cleanProse(prose.toString()));
        return out.length() <= text.length() ? out.toString() : text;
    }

    /** One line for previews: no escapes, whitespace collapsed to single spaces. */
    public static String oneLine(String text) {
        return ANSI.matcher(text).replaceAll("").replaceAll("\\s+", " ").strip();
    }

    private static String cleanProse(String text) {
        if (text.isEmpty()) return text;
        boolean endsWithNewline = text.endsWith("\n");
        String t = withoutScriptAndStyleBlocks(ANSI.matcher(text).replaceAll(""));
        t = t.replace("\r\n", "\n");
        StringBuilder sb = new StringBuilder(t.length());
        String previous = null;
        int repeats = 0;
        for (String raw : t.split("\n", -1)) {
            String line = INNER_SPACES.matcher(raw.stripTrailing()).replaceAll(" ");
            if (BOILERPLATE.matcher(line).matches()) continue;
            if (previous != null && !line.isEmpty() && line.equals(previous)) {
                repeats++;
                continue;
            }
            if (repeats > 0) sb.append(" [x").append(repeats + 1).append(']');
            repeats = 0;
            if (previous != null) sb.append('\n');
            sb.append(line);
            previous = line;
        }
        if (repeats > 0) sb.append(" [x").append(repeats + 1).append(']');
        String result = dropRepeatedParagraphs(sb.toString()).replaceAll("\n{3,}", "\n\n");
        if (endsWithNewline && !result.endsWith("\n")) result = result + "\n";
        return result;
    }

    /**
     * Removes {@code <script ...>...</script>} and {@code <style ...>...</style>} blocks: what the
     * regex {@code (?is)<(script|style)\b[^>]*>.*?</\1\s*>} removes, in one pass. The regex searched
     * to the end of the text for every opening tag without a closing one, which made a result full of
     * them quadratic; here a tag whose closing form no longer occurs is not searched for again.
     */
    static String withoutScriptAndStyleBlocks(String t) {
        if (t.indexOf('<') < 0) return t;
        StringBuilder out = null;
        boolean[] neverClosed = new boolean[BLOCK_TAGS.length];
        int copied = 0;
        int i = t.indexOf('<');
        while (i >= 0) {
            int tag = blockTagAt(t, i + 1, neverClosed);
            if (tag >= 0) {
                int gt = t.indexOf('>', i + 1 + BLOCK_TAGS[tag].length());
                if (gt < 0) break; // no '>' from here on: no opening tag can complete
                int end = closingEnd(t, gt + 1, BLOCK_TAGS[tag]);
                if (end < 0) {
                    neverClosed[tag] = true;
                } else {
                    if (out == null) out = new StringBuilder(t.length());
                    out.append(t, copied, i);
                    copied = end;
                    i = t.indexOf('<', end);
                    continue;
                }
            }
            i = t.indexOf('<', i + 1);
        }
        if (out == null) return t;
        return out.append(t, copied, t.length()).toString();
    }

    /** Which block tag's name starts at {@code at} and ends on a word boundary; -1 for none. */
    private static int blockTagAt(String t, int at, boolean[] skip) {
        for (int k = 0; k < BLOCK_TAGS.length; k++) {
            String name = BLOCK_TAGS[k];
            if (skip[k] || !asciiMatchesIgnoreCase(t, at, name)) continue;
            int after = at + name.length();
            if (after >= t.length() || !isWordChar(t.charAt(after))) return k;
        }
        return -1;
    }

    /** End (exclusive) of the first {@code </name\s*>} at or after {@code from}; -1 if none. */
    private static int closingEnd(String t, int from, String name) {
        for (int at = t.indexOf("</", from); at >= 0; at = t.indexOf("</", at + 2)) {
            if (!asciiMatchesIgnoreCase(t, at + 2, name)) continue;
            int j = at + 2 + name.length();
            while (j < t.length() && isRegexSpace(t.charAt(j))) j++;
            if (j < t.length() && t.charAt(j) == '>') return j + 1;
        }
        return -1;
    }

    private static boolean asciiMatchesIgnoreCase(String t, int at, String lowerAscii) {
        if (at + lowerAscii.length() > t.length()) return false;
        for (int k = 0; k < lowerAscii.length(); k++) {
            char c = t.charAt(at + k);
            if (c >= 'A' && c <= 'Z') c = (char) (c + ('a' - 'A'));
            if (c != lowerAscii.charAt(k)) return false;
        }
        return true;
    }

    /** Word characters as Java 17's {@code \b} sees them. */
    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** {@code \s} without UNICODE_CHARACTER_CLASS. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    private static String dropRepeatedParagraphs(String text) {
        Set<String> seen = new HashSet<>();
        StringBuilder sb = new StringBuilder(text.length());
        for (String para : text.split("\n\n", -1)) {
            String key = para.strip();
            if (key.length() >= MIN_DEDUP_PARAGRAPH && !seen.add(key)) continue;
            if (sb.length() > 0) sb.append("\n\n");
            sb.append(para);
        }
        return sb.toString();
    }
}
