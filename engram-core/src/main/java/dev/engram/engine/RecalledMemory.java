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

    /** Whether only a link to another hit brought this memory in: no layer matched it on its own. */
    public boolean linkedOnly() {
        boolean linked = false;
        for (Contribution c : contributions) {
            if (c.name().equals("match") && c.value() > 0) return false;
            if (c.name().equals("graph")) linked = true;
        }
        return linked;
    }
}
