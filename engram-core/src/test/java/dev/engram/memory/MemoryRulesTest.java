package dev.engram.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        String korean = MemoryRules.slug("비밀번호를 변경했습니다");
        assertTrue(korean.matches("note-[0-9a-f]{8}") && MemoryRules.isKey(korean), korean);
        assertEquals(korean, MemoryRules.slug("비밀번호를 변경했습니다"));
        assertTrue(!korean.equals(MemoryRules.slug("레디스 인증")));
        assertTrue(MemoryRules.isKey(MemoryRules.slug("x".repeat(200))));
        var tooMany = assertThrows(InvalidArgumentException.class, () -> MemoryRules.tags("tags",
                java.util.stream.IntStream.range(0, 21).mapToObj(i -> "t" + i).toList()));
        assertEquals("tags has 21 tags, over the limit of 20", tooMany.getMessage());
    }
}
