package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.ContextResult;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.mcp.render.TokenEstimate;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The text renderer as a {@link dev.engram.engine.ResultCost}: for random memories, every entry's price
 * is the token estimate of that entry as it appears in the rendered reply, in every recall mode and in
 * the briefing. Contents hold no line breaks here, so the reply can be cut back into its entries.
 */
class TextRendererCostTest {
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 -_./:·äß中";
    private final TextRenderer text = new TextRenderer();

    @Test
    void recallEntriesCostWhatTheyPrintInEveryMode() {
        Random random = new Random(20261201);
        for (int round = 0; round < 300; round++) {
            RecallMode mode = RecallMode.values()[random.nextInt(RecallMode.values().length)];
            List<RecalledMemory> results = new ArrayList<>();
            int n = 1 + random.nextInt(14); // past 9, so the rank takes two digits
            for (int i = 0; i < n; i++) results.add(recalled(random, i));
            RecallResult r = new RecallResult(mode, results, n + random.nextInt(5), random.nextInt(5000),
                    random.nextBoolean(), List.of(), List.of("L1 keyword: 3 hits"));
            String printed = text.recall(r);
            String body = printed.substring(0, printed.lastIndexOf("\n\n" + n + " of "));
            String[] entries = body.split(mode == RecallMode.INDEX ? "\n" : "\n\n");
            assertEquals(n, entries.length, printed);
            for (int i = 0; i < n; i++) {
                assertEquals(TokenEstimate.of(entries[i]), text.recalled(results.get(i), mode, i + 1),
                        "round " + round + ", " + mode + ", entry " + (i + 1) + ": " + entries[i]);
            }
        }
    }

    @Test
    void briefingLinesCostWhatTheyPrint() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            List<List<Memory>> sections = new ArrayList<>();
            List<Memory> all = new ArrayList<>();
            for (int s = 0; s < 5; s++) {
                List<Memory> section = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) section.add(memory(random, all.size()));
                all.addAll(section);
                sections.add(section);
            }
            ContextResult c = new ContextResult("default", sections.get(0), sections.get(1), sections.get(2),
                    sections.get(3), sections.get(4), all.size(), random.nextInt(2000));
            List<String> lines = text.context(c).lines().filter(l -> l.startsWith("- ")).toList();
            assertEquals(all.size(), lines.size());
            // printed in section order pinned, warnings, important, recent, relevant
            List<Memory> printedOrder = List.of(sections.get(0), sections.get(1), sections.get(2), sections.get(3),
                    sections.get(4)).stream().flatMap(List::stream).toList();
            for (int i = 0; i < lines.size(); i++) {
                assertEquals(TokenEstimate.of(lines.get(i)), text.briefingLine(printedOrder.get(i)), lines.get(i));
            }
        }
    }

    @Test
    void theRankIsPartOfThePrice() {
        RecalledMemory r = recalled(new Random(3), 0);
        String one = text.recall(new RecallResult(RecallMode.RANKED, List.of(r), 1, 0, false, List.of(), List.of()));
        assertTrue(one.startsWith("[1] "), one);
        int atOne = text.recalled(r, RecallMode.RANKED, 1);
        int atTwelve = text.recalled(r, RecallMode.RANKED, 12);
        assertTrue(atTwelve == atOne || atTwelve == atOne + 1, atOne + " vs " + atTwelve);
        assertEquals(TokenEstimate.of(one.substring(0, one.lastIndexOf("\n\n1 of "))), atOne);
    }

    private static RecalledMemory recalled(Random random, int i) {
        String reason = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> " ";
            default -> "pinned p2 · bm25 " + random.nextInt(100) / 100.0 + " · " + words(random, 1 + random.nextInt(40));
        };
        return new RecalledMemory(memory(random, i), random.nextDouble() * 2, random.nextInt(3) == 0 ? 0 : random.nextDouble(),
                List.of(), reason);
    }

    private static Memory memory(Random random, int i) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextInt(30_000_000));
        List<String> tags = new ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) tags.add("tag" + random.nextInt(50));
        return Memory.builder().id("m_" + String.format("%010d", random.nextInt(1_000_000_000)))
                .key("key-" + i + "-" + words(random, 1 + random.nextInt(3)).replace(' ', '-'))
                .type(MemoryType.values()[random.nextInt(MemoryType.values().length)])
                .content(words(random, 1 + random.nextInt(300)).strip() + ".").tags(tags)
                .pinPriority(random.nextInt(3) == 0 ? 1 + random.nextInt(5) : 0)
                .createdAt(t).updatedAt(t).build();
    }

    private static String words(Random random, int chars) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < chars; k++) sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        return sb.toString();
    }
}
