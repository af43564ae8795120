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
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        String spaced = text.replaceAll("(\\p{Ll})(\\p{Lu})", "$1 $2");
        for (String w : spaced.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
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
