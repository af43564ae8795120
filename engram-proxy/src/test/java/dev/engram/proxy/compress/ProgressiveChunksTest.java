package dev.engram.proxy.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ProgressiveChunksTest {
    @Test
    void chunksConcatenateToTheOriginalForAnyLimit() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(20_000);
            for (int i = 0; i < len; i++) {
                int r = random.nextInt(20);
                sb.append(r == 0 ? '\n' : r == 1 ? ' ' : r == 2 ? '\uD83D' : (char) ('a' + r));
                if (r == 2) sb.append('\uDE00'); // a whole surrogate pair
            }
            String text = sb.toString();
            StoredResult stored = new StoredResult("k", "s", "t", text, Sections.split(text));
            int limit = 1 + random.nextInt(5000);
            StringBuilder back = new StringBuilder();
            int offset = 0;
            for (int guard = 0; guard < 100_000; guard++) {
                String chunk = ProgressiveChunks.chunk(stored, offset, limit);
                int at = chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
                back.append(chunk, 0, at);
                offset += at;
                if (chunk.substring(at).contains("has_more=false")) break;
                assertTrue(at > 0, "a chunk makes progress; reproduce with -Dengram.seed=" + seed);
            }
            assertEquals(text, back.toString(), "reproduce with: mvn -pl engram-proxy test -Dtest=ProgressiveChunksTest -Dengram.seed=" + seed);
        }
    }

    @Test
    void aChunkEndsAtAParagraphWhenOneIsNearTheLimit() {
        String text = "a".repeat(900) + "\n\n" + "b".repeat(500);
        String chunk = ProgressiveChunks.chunk(new StoredResult("k", "s", "t", text, Sections.split(text)), 0, 1000);
        assertEquals(902, chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN));
        assertTrue(chunk.contains("stm_proxy_read_more(key=\"k\", offset=902)"));
    }
}
