package dev.engram.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryRulesTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void ttlForms() {
        assertEquals(NOW.plus(Duration.ofMinutes(90)), MemoryRules.ttl("ttl", "90m", NOW));
        assertEquals(NOW.plus(Duration.ofDays(14)), MemoryRules.ttl("ttl", "2w", NOW));
        assertEquals(NOW.plus(Duration.ofHours(24)), MemoryRules.ttl("ttl", " 24H ", NOW));
        assertEquals("ttl '0d' is zero; send a positive duration such as 24h or 7d",
                assertThrows(InvalidArgumentException.class, () -> MemoryRules.ttl("ttl", "0d", NOW)).getMessage());
        assertTrue(assertThrows(InvalidArgumentException.class, () -> MemoryRules.ttl("ttl", "7 days", NOW))
                .getMessage().contains("send a duration such as 90m, 24h, 7d or 2w"));
    }

    @Test
    void pointsInTimeAreDatesInstantsOrRelativeAges() {
        assertEquals(NOW.minus(Duration.ofDays(7)), MemoryRules.pointInTime("from", "7d", NOW));
        assertEquals(Instant.parse("2026-01-02T00:00:00Z"), MemoryRules.pointInTime("from", "2026-01-02", NOW));
        assertEquals(Instant.parse("2026-01-02T03:04:05Z"), MemoryRules.pointInTime("from", "2026-01-02T03:04:05Z", NOW));
        assertEquals(Instant.parse("2026-01-02T23:59:59.999999999Z"), MemoryRules.endOfPointInTime("to", " 2026-01-02 ", NOW));
        assertEquals(Instant.parse("2026-01-02T03:04:05Z"), MemoryRules.endOfPointInTime("to", "2026-01-02T03:04:05Z", NOW));
        assertEquals(NOW.minus(Duration.ofDays(7)), MemoryRules.endOfPointInTime("to", "7d", NOW));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> MemoryRules.pointInTime("as_of", "yesterday", NOW))
                .getMessage().startsWith("as_of 'yesterday' is not a date"));
    }

    @Test
    void keysTagsZonesAndReferences() {
        assertEquals("use-zod", MemoryRules.key("key", "use-zod"));
        assertTrue(MemoryRules.isId("m_abcdefgh23"));
        assertTrue(!MemoryRules.isId("m_abcdefgh19"), "base32 has no 0, 1, 8 or 9");
        assertEquals(List.of("redis", "api"), MemoryRules.tags("tags", List.of(" Redis", "api", "redis", "")));
        assertEquals("default", MemoryRules.zone("zone", null));
        assertEquals("use-zod-for-validation", MemoryRules.slug("Use Zod for validation!"));
        assertEquals("cafe-muller-opens-at-nine", MemoryRules.slug("Café Müller opens at nine"), "accents dropped, letters kept");
        assertEquals("zoe-garcia-resume", MemoryRules.slug("Zoë García: résumé"));
        String korean = MemoryRules.slug("비밀번호를 변경했습니다");
        assertTrue(korean.matches("note-[0-9a-f]{8}") && MemoryRules.isKey(korean), korean);
        assertEquals(korean, MemoryRules.slug("비밀번호를 변경했습니다"));
        assertTrue(!korean.equals(MemoryRules.slug("레디스 인증")));
        assertTrue(MemoryRules.isKey(MemoryRules.slug("x".repeat(200))));
        var tooMany = assertThrows(InvalidArgumentException.class, () -> MemoryRules.tags("tags",
                java.util.stream.IntStream.range(0, 21).mapToObj(i -> "t" + i).toList()));
        assertEquals("tags has 21 tags, over the limit of 20", tooMany.getMessage());
    }

    private static String rejected(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(InvalidArgumentException.class, call).getMessage();
    }

    /** Issue 13 item 5: a rejected value comes back as a short prefix and its length, never whole. */
    @Test
    void aHugeRejectedValueIsQuotedAsAPrefixAndItsLength() {
        String huge = "X".repeat(1 << 20);
        List<String> messages = List.of(
                rejected(() -> MemoryRules.key("key", huge)),
                rejected(() -> MemoryRules.zone("zone", huge)),
                rejected(() -> MemoryRules.tags("tags", List.of(huge))),
                rejected(() -> MemoryRules.ttl("ttl", huge, NOW)),
                rejected(() -> MemoryRules.pointInTime("from", huge, NOW)),
                rejected(() -> MemoryRules.reference("ref", huge)),
                rejected(() -> MemoryType.parse("type", huge)),
                rejected(() -> dev.engram.engine.ForgetAction.parse("action", huge)),
                rejected(() -> dev.engram.engine.zone.ConflictPolicy.parse("overwrite_conflicts", huge)),
                dev.engram.error.NotFoundException.memory(huge, "default").getMessage());
        for (String m : messages) {
            assertTrue(m.length() < 400, m.length() + " chars: " + m.substring(0, Math.min(m.length(), 300)));
            assertTrue(m.contains("(1048576 characters)"), m.substring(0, Math.min(m.length(), 300)));
        }
        assertEquals("'short'", MemoryRules.shown("short"));
        assertEquals("short", MemoryRules.clipped("short"));
        assertEquals("X".repeat(40) + "…", MemoryRules.clipped(huge));
    }

    @Test
    void aCallNamesAtMostAThousandMemories() {
        List<String> many = java.util.Collections.nCopies(MemoryRules.MAX_REFERENCES + 1, "key-1");
        assertEquals("ids names 1001 memories; send at most 1000 a call (split the rest into further calls)",
                rejected(() -> MemoryRules.references("ids", many)));
        assertEquals("ids names 1001 memories; send at most 1000 a call (split the rest into further calls)",
                rejected(() -> dev.engram.engine.RecallQuery.builder("").ids(many).build()));
        assertEquals(MemoryRules.MAX_REFERENCES, MemoryRules.references("ids", many.subList(1, many.size())).size());
    }

    /** Issue 13 item 6: the silent changes and missing limits. */
    @Test
    void pathsAreBoundedAndUnpairedSurrogatesRefused() {
        assertEquals("src/api/**", MemoryRules.path("path_scope", " src/api/** "));
        assertEquals(null, MemoryRules.path("file", "  "));
        assertTrue(rejected(() -> MemoryRules.path("file", "a/".repeat(600))).startsWith("file is 1200 characters, over the limit of 1024"));
        assertTrue(rejected(() -> MemoryRules.content("content", "broken \uD800 text"))
                .startsWith("content has an unpaired UTF-16 surrogate (\\ud800) at character 8"));
        assertTrue(rejected(() -> MemoryRules.path("file", "x\uDC00")).contains("unpaired UTF-16 surrogate"));
        assertEquals("emoji \uD83D\uDE00 ok", MemoryRules.content("content", "emoji \uD83D\uDE00 ok"));
    }

    @Test
    void aKeyMayNotTakeTheFormOfAnId() {
        assertTrue(rejected(() -> MemoryRules.key("key", "m_abcdefghij")).contains("has the form of a memory id"));
        assertEquals("m_abc", MemoryRules.key("key", "m_abc"));
        assertEquals("m-abcdefghij", MemoryRules.key("key", "m-abcdefghij"));
    }

    @Test
    void newZonesMayNotBeReservedWordsOrNumbersButOldOnesStayReadable() {
        for (String reserved : List.of("all", "null", "none", "true", "1e999", "1e-5", "42", "1.5", "0x1f", "0b1")) {
            assertTrue(rejected(() -> MemoryRules.newZone("zone", reserved)).contains("is reserved"), reserved);
            // a store written before the reservation may hold such a zone: reads still name it
            assertEquals(reserved, MemoryRules.zone("zone", reserved));
        }
        for (String fine : List.of("default", "my-project", "v2", "2026-q1", "all-hands", "nullable", "0xygen")) {
            assertEquals(fine, MemoryRules.newZone("zone", fine));
        }
    }

    /** One rule for every closed choice: the exact wire name. */
    @Test
    void everyEnumAcceptsExactlyItsWireNames() {
        assertEquals(dev.engram.engine.ForgetAction.HARD, dev.engram.engine.ForgetAction.parse("action", "hard"));
        for (String variant : List.of("HARD", " hard ", "Hard")) {
            assertTrue(rejected(() -> dev.engram.engine.ForgetAction.parse("action", variant)).contains("is not an action"));
        }
        assertEquals(Importance.HIGH, Importance.parse("importance", "high"));
        assertTrue(rejected(() -> Importance.parse("importance", "HIGH")).contains("is not an importance"));
        assertTrue(rejected(() -> MemoryType.parse("type", "Fact")).contains("is not a known type"));
        assertTrue(rejected(() -> EdgeType.parse("type", " related")).contains("is not an edge type"));
        assertTrue(rejected(() -> dev.engram.engine.Budget.parse("budget", "TINY")).contains("is not a budget"));
        assertTrue(rejected(() -> Origin.parse("origin", "Agent")).contains("is not an origin"));
        assertTrue(rejected(() -> MemoryStatus.parse("status", "ACTIVE")).contains("is not a status"));
    }

    @Test
    void derivedKeysAreRecognisedForTheirOwnContentOnly() {
        String content = "Caroline went to the LGBTQ support group yesterday";
        assertEquals("caroline-went-to-the-lgbtq-support", MemoryRules.derivedKey(content, 1));
        assertEquals("caroline-went-to-the-lgbtq-support-3", MemoryRules.derivedKey(content, 3));
        assertTrue(MemoryRules.isDerivedKey(MemoryRules.derivedKey(content, 1), content));
        assertTrue(MemoryRules.isDerivedKey(MemoryRules.derivedKey(content, 12), content));
        assertFalse(MemoryRules.isDerivedKey("caroline-went-to-the-lgbtq-support-1", content), "suffixes start at 2");
        assertFalse(MemoryRules.isDerivedKey("caroline-support", content));
        assertFalse(MemoryRules.isDerivedKey("caroline-went-to-the-lgbtq-support-x", content));
        assertFalse(MemoryRules.isDerivedKey(MemoryRules.derivedKey(content, 1), "Melanie went to the park"));
        String longWords = "internationalisation ".repeat(3) + "considerations matter everywhere";
        String cut = MemoryRules.derivedKey(longWords, 10);
        assertTrue(cut.length() <= 80 && cut.endsWith("-10") && MemoryRules.isDerivedKey(cut, longWords), cut);
        String korean = "한국어 메모";
        assertTrue(MemoryRules.isDerivedKey(MemoryRules.derivedKey(korean, 1), korean), "the note-hash fallback too");
    }
}
