package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.rank.Contribution;
import java.util.List;

/**
 * One recall result. {@code relevance} is the lexical match relative to the best hit (0..1);
 * {@code contributions} add up to {@code score}; {@code reason} is the one-line explanation.
 */
public record RecalledMemory(Memory memory, double score, double relevance, List<Contribution> contributions,
                             String reason) {
    public RecalledMemory {
        contributions = List.copyOf(contributions);
    }
}
