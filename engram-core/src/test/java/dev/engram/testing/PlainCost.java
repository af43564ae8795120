package dev.engram.testing;

import dev.engram.engine.RecallMode;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.ResultCost;
import dev.engram.memory.Memory;

/**
 * A profile-neutral {@link ResultCost} for engine and store tests, which cannot reach any profile's
 * renderer: a result costs its {@code type/key: content} line at a token per four characters, rounded
 * up, so budgets cut by sizes close to what a profile prints. Tests that pin a profile's own prices
 * live with that profile.
 */
public final class PlainCost implements ResultCost {
    public static final PlainCost INSTANCE = new PlainCost();

    private PlainCost() {
    }

    @Override
    public int recalled(RecalledMemory result, RecallMode mode, int rank) {
        return tokens(result.memory());
    }

    @Override
    public int briefingLine(Memory memory) {
        return tokens(memory);
    }

    private static int tokens(Memory m) {
        String line = m.type().wireName() + "/" + m.key() + ": " + m.content();
        return (line.length() + 3) / 4;
    }
}
