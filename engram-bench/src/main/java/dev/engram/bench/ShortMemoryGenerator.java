package dev.engram.bench;

import static dev.engram.bench.Vocabulary.pick;

import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import java.util.List;
import java.util.Random;

/**
 * Deterministic stream of short one-observation entities: one sentence of 4-8 words each, no tags, no
 * file, type fact, drawn from the same {@link Vocabulary} as {@link MemoryGenerator} so that the same
 * queries hit both corpora. This is what a knowledge-graph memory usually holds (an entity and one short
 * observation, e.g. "invoiceService uses redis for caching."), next to the longer coding-agent memories.
 * Every sentence ends with its only period, so server-memory stores it as exactly one observation.
 */
final class ShortMemoryGenerator {
    /** As in MemoryGenerator: large enough that 100k entities still meet unseen identifiers. */
    private static final int TAIL_IDENTIFIERS = 5_000;

    private final Random random;
    private final Vocabulary vocabulary;

    ShortMemoryGenerator(long seed) {
        this.random = new Random(seed);
        this.vocabulary = Vocabulary.build(seed ^ 0x5DEECE66DL, TAIL_IDENTIFIERS);
    }

    SyntheticMemory next() {
        String lib = pick(Vocabulary.LIBRARIES, random);
        String concern = pick(Vocabulary.CONCERNS, random).replace('-', ' ');
        String ident = vocabulary.identifier(random);
        String content = switch (random.nextInt(6)) {
            case 0 -> ident + " uses " + lib + " for " + concern + ".";
            case 1 -> "The team prefers " + lib + " for " + concern + ".";
            case 2 -> ident + " owns the " + concern + " logic.";
            case 3 -> ident + " sometimes fails with " + pick(Vocabulary.ERRORS, random).replace('.', ' ').strip() + ".";
            case 4 -> ident + " runs on " + lib + ".";
            default -> "The " + concern + " settings live in " + pick(Vocabulary.DIRS, random) + ".";
        };
        return new SyntheticMemory(content, MemoryType.FACT, List.of(), MemoryRules.DEFAULT_ZONE, null);
    }
}
