package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.CompressionMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Invariants over random content, budgets and modes: within budget, and the original stored exactly. */
class CompressorRandomizedTest {
    @Test
    void everyModeStaysWithinBudgetAndKeepsTheOriginalExactly() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        Random random = new Random(seed);
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);
        String reproduce = "reproduce with: mvn -pl engram-proxy test -Dtest=CompressorRandomizedTest -Dengram.seed=" + seed;
        for (int round = 0; round < 60; round++) {
            String text = switch (random.nextInt(5)) {
                case 0 -> CompressFixtures.markdown(1 + random.nextInt(30), 1 + random.nextInt(8));
                case 1 -> CompressFixtures.prose(10 + random.nextInt(400));
                case 2 -> CompressFixtures.jsonArray(random.nextInt(400));
                case 3 -> CompressFixtures.nestedJson(1 + random.nextInt(8), 1 + random.nextInt(80));
                default -> "\u001b[3" + random.nextInt(8) + "mline\u001b[0m  x\n".repeat(random.nextInt(3000));
            };
            int budget = 1000 + random.nextInt(12_000);
            CompressionMode mode = CompressionMode.values()[random.nextInt(CompressionMode.values().length)];
            if (text.length() <= budget || mode == CompressionMode.NONE) continue;
            CompressionOutcome out = compressor.compress("s", "t", text, TextCleaner.clean(text), budget, mode);
            assertTrue(out.text().length() <= budget, mode + " gave " + out.text().length() + " > " + budget + "; " + reproduce);
            if (out.key() != null) {
                assertEquals(text, store.get(out.key()).orElseThrow().original(), reproduce);
            }
            assertTrue(out.retention() >= 0 && out.retention() <= 1, reproduce);
        }
    }
}
