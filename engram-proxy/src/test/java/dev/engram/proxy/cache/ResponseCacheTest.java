package dev.engram.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.MutableClock;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResponseCacheTest {
    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    private static CacheKey key(String tool, Map<String, Object> args) {
        return CacheKey.of("fs", tool, args, McpJsonDefaults.getMapper());
    }

    @Test
    void argumentOrderDoesNotMatterButValuesDo() {
        Map<String, Object> ab = new java.util.LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", Map.of("y", 2, "x", List.of(1, 2)));
        Map<String, Object> ba = new java.util.LinkedHashMap<>();
        ba.put("b", Map.of("x", List.of(1, 2), "y", 2));
        ba.put("a", 1);
        assertEquals(key("t", ab), key("t", ba));
        assertTrue(!key("t", ab).equals(key("t", Map.of("a", 2))));
        assertTrue(!key("t", ab).equals(key("u", ab)));
    }

    @Test
    void entriesExpireAfterTheirTtlAndSurviveARestart() {
        CacheKey k = key("read", Map.of("path", "/a"));
        try (ResponseCache cache = new ResponseCache(dir, clock)) {
            cache.put(k, "content", Duration.ofSeconds(60));
            assertEquals("content", cache.get(k).orElseThrow());
        }
        try (ResponseCache cache = new ResponseCache(dir, clock)) {
            assertEquals("content", cache.get(k).orElseThrow(), "kept on disk");
            clock.advance(Duration.ofSeconds(61));
            assertTrue(cache.get(k).isEmpty());
        }
    }

    @Test
    void clearCanBeScopedToAServerOrTool() {
        try (ResponseCache cache = new ResponseCache(dir, clock)) {
            cache.put(key("read", Map.of()), "1", Duration.ofSeconds(60));
            cache.put(key("list", Map.of()), "2", Duration.ofSeconds(60));
            assertEquals(1, cache.clear(null, "read"));
            assertEquals(1, cache.size());
            assertEquals(1, cache.clear("fs", null));
            assertEquals(0, cache.size());
        }
    }
}
