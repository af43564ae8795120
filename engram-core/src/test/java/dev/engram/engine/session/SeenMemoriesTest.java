package dev.engram.engine.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SeenMemoriesTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final SeenMemories seen = new SeenMemories(clock);

    @Test
    void eachSessionHasItsOwnSetReplacedByTheNextAndForgottenAfter24Hours() {
        seen.replace("a/1", List.of("m_1", "m_2"));
        seen.replace("b/2", List.of("m_3"));
        assertEquals(Set.of("m_1", "m_2"), seen.seen("a/1"));
        assertEquals(Set.of("m_3"), seen.seen("b/2"));
        assertEquals(Set.of(), seen.seen("c/3"));
        seen.replace("a/1", List.of("m_4"));
        assertEquals(Set.of("m_4"), seen.seen("a/1"), "replaced, not added to");
        seen.replace("a/1", List.of());
        assertEquals(Set.of(), seen.seen("a/1"));

        seen.replace(null, List.of("m_5"));
        assertEquals(Set.of(), seen.seen(null), "no session, nothing tracked");

        clock.advance(Duration.ofHours(23));
        assertEquals(Set.of("m_3"), seen.seen("b/2"));
        clock.advance(Duration.ofHours(1));
        assertEquals(Set.of(), seen.seen("b/2"));
    }

    @Test
    void bounded() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < SeenMemories.MAX_IDS + 5; i++) many.add("m_" + i);
        seen.replace("s", many);
        assertEquals(SeenMemories.MAX_IDS, seen.seen("s").size());
        for (int i = 0; i <= SeenMemories.MAX_SESSIONS; i++) seen.replace("x" + i, List.of("m_1"));
        assertEquals(Set.of(), seen.seen("s"), "the least recently used session went first");
        assertEquals(Set.of("m_1"), seen.seen("x" + SeenMemories.MAX_SESSIONS));
    }
}
