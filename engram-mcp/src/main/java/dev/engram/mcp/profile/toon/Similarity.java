package dev.engram.mcp.profile.toon;

import dev.engram.engine.lifecycle.DuplicateMerge;
import dev.engram.memory.Memory;
import java.util.Set;

/** toon's word-set Jaccard over key, content and tags, for its audits; the engine's, which the similar-merge uses. */
final class Similarity {
    private Similarity() {
    }

    static Set<String> words(Memory m) {
        return DuplicateMerge.lexicalWords(m);
    }

    static double jaccard(Set<String> a, Set<String> b) {
        return DuplicateMerge.jaccard(a, b);
    }
}
