package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OverlappingClaimsTest {
    private static final List<String> VOCABULARY = List.of("redis", "cache", "timeout", "pool", "connection", "retry",
            "backoff", "deploy", "release", "schema", "validation", "token", "session", "webhook", "stripe", "billing",
            "queue", "worker", "index", "search", "vector", "embedding", "latency", "budget");

    private static String word(int i) {
        return i < VOCABULARY.size() ? VOCABULARY.get(i) : "word" + (char) ('a' + i % 26) + (char) ('a' + i / 26);
    }

    private static Memory memory(int i, String content, MemoryType type) {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        return Memory.builder().id("m" + i).key("k" + i).content(content).type(type).createdAt(t).updatedAt(t).build();
    }

    @Test
    void findsOnlyRealOverlapsAndAsManyAsComparingEveryPairDoes() {
        SplittableRandom random = new SplittableRandom(7);
        int fewerThanFive = 0;
        for (int round = 0; round < 40; round++) {
            int vocabulary = 8 + round * 2; // later rounds overlap less: some have fewer than five pairs
            List<Memory> all = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                StringBuilder b = new StringBuilder();
                int n = 3 + random.nextInt(6);
                for (int w = 0; w < n; w++) b.append(word(random.nextInt(vocabulary))).append(' ');
                b.append("unique").append(round).append('x').append(i); // one word no other memory has
                all.add(memory(i, b.toString(), random.nextBoolean() ? MemoryType.FACT : MemoryType.DECISION));
            }
            int truePairs = 0;
            for (int i = 0; i < all.size(); i++) {
                for (int j = i + 1; j < all.size(); j++) {
                    if (all.get(i).type() == all.get(j).type() && OverlappingClaims.jaccard(OverlappingClaims.words(all.get(i).content()),
                            OverlappingClaims.words(all.get(j).content())) > 0.4) truePairs++;
                }
            }
            if (truePairs < 5) fewerThanFive++;
            List<String> found = OverlappingClaims.find(all);
            assertEquals(Math.min(5, truePairs), found.size(), "round " + round);
            Pattern pair = Pattern.compile("k(\\d+) ≈ k(\\d+) \\((\\d+)% same category\\)");
            for (String f : found) {
                Matcher m = pair.matcher(f);
                assertTrue(m.matches(), f);
                Memory a = all.get(Integer.parseInt(m.group(1))), b = all.get(Integer.parseInt(m.group(2)));
                assertEquals(a.type(), b.type(), f);
                assertTrue(OverlappingClaims.jaccard(OverlappingClaims.words(a.content()), OverlappingClaims.words(b.content())) > 0.4, f);
            }
        }
        assertTrue(fewerThanFive >= 5, "the corpus must also test the rounds where every pair is reported: " + fewerThanFive);
    }

    @Test
    void shortWordsAndOtherCategoriesDoNotCount() {
        List<Memory> all = List.of(memory(0, "use the api key for it", MemoryType.FACT), memory(1, "use the api key for me", MemoryType.FACT),
                memory(2, "redis cache timeout pool", MemoryType.FACT), memory(3, "redis cache timeout pool", MemoryType.WARNING));
        assertEquals(List.of(), OverlappingClaims.find(all), "words of three letters or fewer, and a warning beside a fact");
    }
}
