package dev.engram.analysis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Plain word splitting for the engine's own heuristics (near-duplicates, tag inference, quality).
 * Search uses the index's analysers instead; this only needs to be stable and language-neutral.
 */
public final class Words {
    private Words() {
    }

    /** Lowercase words of letters and digits, camelCase split, in order. */
    public static List<String> of(String text) {
        if (text == null) {
            return new ArrayList<>();
        }
        return runs(camelSpaced(text).toLowerCase(Locale.ROOT));
    }

    /**
     * The runs of letters and digits (Unicode categories L and N) of {@code text}, in order and never empty: what
     * {@code text.split("[^\\p{L}\\p{N}]+")} gives without its empty strings. Written out because a remember splits
     * every neighbour's text, and the regex (compiled on every call) was most of that work.
     */
    public static List<String> runs(String text) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (isWordChar(cp)) {
                if (start < 0) start = i;
            } else if (start >= 0) {
                out.add(text.substring(start, i));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) out.add(text.substring(start));
        return out;
    }

    /** A letter or a number, as the regex classes {@code \p{L}} and {@code \p{N}} define them. */
    static boolean isWordChar(int cp) {
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER, Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }

    /** A space between every lowercase letter and the uppercase letter after it ({@code fooBar} → {@code foo Bar}). */
    private static String camelSpaced(String text) {
        StringBuilder out = null;
        int previous = -1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int type = Character.getType(cp);
            if (previous == Character.LOWERCASE_LETTER && type == Character.UPPERCASE_LETTER) {
                if (out == null) out = new StringBuilder(text.length() + 8).append(text, 0, i);
                out.append(' ');
            }
            if (out != null) out.appendCodePoint(cp);
            previous = type;
            i += Character.charCount(cp);
        }
        return out == null ? text : out.toString();
    }

    private static final java.util.regex.Pattern COMBINING_MARKS = java.util.regex.Pattern.compile("\\p{M}+");

    /**
     * {@code text} decomposed (NFD) with its combining marks dropped: Latin letters without their accents
     * ({@code Café Müller} → {@code Cafe Muller}); Hangul comes out as jamo. ASCII text is returned as is, without
     * the normaliser's work. The one accent rule of keys, zone names and brain-tools' query matching.
     */
    public static String withoutAccents(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7F) {
                return COMBINING_MARKS.matcher(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFD)).replaceAll("");
            }
        }
        return text;
    }

    public static Set<String> setOf(String text) {
        return new HashSet<>(of(text));
    }

    /** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        int common = 0;
        for (String w : a) {
            if (b.contains(w)) common++;
        }
        return (double) common / (a.size() + b.size() - common);
    }
}
