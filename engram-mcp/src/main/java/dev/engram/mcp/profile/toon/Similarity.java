package dev.engram.mcp.profile.toon;

import dev.engram.memory.Memory;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** toon's word-set Jaccard over key, content and tags, for its audits and the similar-merge. */
final class Similarity {
    private Similarity() {
    }

    static Set<String> words(Memory m) {
        String text = m.key().replace('-', ' ').replace('_', ' ') + " " + m.content() + " " + String.join(" ", m.tags());
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).filter(w -> w.length() > 1)
                .collect(Collectors.toSet());
    }

    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) return 0;
        Set<String> inter = new HashSet<>(a);
        inter.retainAll(b);
        return (double) inter.size() / (a.size() + b.size() - inter.size());
    }
}
