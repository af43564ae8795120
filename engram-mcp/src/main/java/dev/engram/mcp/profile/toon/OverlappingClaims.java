package dev.engram.mcp.profile.toon;

import dev.engram.memory.Memory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * toon's "potentially overlapping claims" of its health audit: two entries of one category whose content
 * words of more than three letters overlap by a Jaccard above 0.4, the first five pairs found. toon compares
 * every pair; this finds the same pairs without that: words are ordered rarest first, and two sets that
 * overlap that much must share one of the first {@code |x| − ⌊0.4·|x|⌋} words of each (prefix filtering), so
 * only pairs sharing such a word are compared.
 */
final class OverlappingClaims {
    static final double MIN_JACCARD = 0.4;
    static final int MAX_PAIRS = 5;

    private OverlappingClaims() {
    }

    /** {@code a ≈ b (NN% same category)}, at most five. */
    static List<String> find(List<Memory> memories) {
        List<Set<String>> words = new ArrayList<>(memories.size());
        Map<String, Integer> df = new HashMap<>();
        for (Memory m : memories) {
            Set<String> w = words(m.content());
            words.add(w);
            for (String x : w) df.merge(x, 1, Integer::sum);
        }
        Comparator<String> rarestFirst = Comparator.comparingInt((String x) -> df.get(x)).thenComparing(Comparator.naturalOrder());
        Map<String, List<Integer>> seen = new HashMap<>(); // prefix word → earlier memories holding it in their prefix
        List<String> out = new ArrayList<>();
        for (int i = 0; i < memories.size() && out.size() < MAX_PAIRS; i++) {
            List<String> ordered = new ArrayList<>(words.get(i));
            if (ordered.isEmpty()) continue;
            ordered.sort(rarestFirst);
            int prefix = Math.min(ordered.size(), ordered.size() - (int) Math.floor(MIN_JACCARD * ordered.size()) + 1);
            Set<Integer> candidates = new LinkedHashSet<>();
            for (String w : ordered.subList(0, prefix)) candidates.addAll(seen.getOrDefault(w, List.of()));
            Memory a = memories.get(i);
            for (int j : candidates) {
                Memory b = memories.get(j);
                if (!ToonText.category(a.type()).equals(ToonText.category(b.type())) || a.key().equals(b.key())) continue;
                double similarity = jaccard(words.get(j), words.get(i));
                if (similarity > MIN_JACCARD) {
                    out.add(b.key() + " ≈ " + a.key() + " (" + Math.round(similarity * 100) + "% same category)");
                    if (out.size() == MAX_PAIRS) break;
                }
            }
            for (String w : ordered.subList(0, prefix)) seen.computeIfAbsent(w, k -> new ArrayList<>()).add(i);
        }
        return out;
    }

    /** toon's words: lower case, {@code -} and {@code _} as spaces, longer than three characters. */
    static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).replace('-', ' ').replace('_', ' ').split("\\s+")) {
            if (w.length() > 3) out.add(w);
        }
        return out;
    }

    static double jaccard(Set<String> a, Set<String> b) {
        int shared = 0;
        for (String w : a) if (b.contains(w)) shared++;
        int union = a.size() + b.size() - shared;
        return union == 0 ? 0 : (double) shared / union;
    }
}
