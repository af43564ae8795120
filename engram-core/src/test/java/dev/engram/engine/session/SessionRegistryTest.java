package dev.engram.engine.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionRegistryTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Set<Long> running = new HashSet<>(Set.of(1L, 2L, 3L));
    private final SessionRegistry registry = new SessionRegistry(store, clock, "here", running::contains);

    private AgentSession beat(String id, long pid, String host, String... files) {
        return registry.beat(new Heartbeat(id, "agent-" + id, host, pid, "main", Set.of(files)));
    }

    private List<String> activeIds() {
        return registry.active().stream().map(AgentSession::id).toList();
    }

    @Test
    void aHeartbeatKeepsTheStartAndAddsFiles() {
        AgentSession first = beat("a", 1, "here", "src/a.ts");
        clock.advance(Duration.ofMinutes(2));
        AgentSession second = beat("a", 1, "here", "src/b.ts");
        assertEquals(first.startedAt(), second.startedAt());
        assertEquals(clock.instant(), second.lastSeen());
        assertEquals(Set.of("src/a.ts", "src/b.ts"), second.files().keySet());
        assertEquals(List.of("a"), activeIds());
    }

    @Test
    void activeMeansSeenWithinTenMinutesNewestFirst() {
        beat("old", 1, "here");
        clock.advance(Duration.ofMinutes(5));
        beat("new", 2, "here");
        assertEquals(List.of("new", "old"), activeIds());
        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        assertEquals(List.of("new"), activeIds(), "'old' was seen 10 min 1 s ago");
    }

    @Test
    void deadSessionsOfThisHostArePrunedAndLiveIdleOnesKept() {
        beat("dead", 1, "here");
        beat("idle", 2, "here");
        beat("elsewhere", 1, "other-host");
        clock.advance(Duration.ofMinutes(11));
        running.remove(1L);
        assertEquals(List.of(), activeIds());
        String mark = store.mark(SessionRegistry.MARK).orElse("");
        assertTrue(!mark.contains("dead") && mark.contains("idle") && mark.contains("elsewhere"),
                "only the dead session of this host is gone: " + mark);
        clock.advance(SessionRegistry.FOREIGN_PRUNE);
        beat("fresh", 3, "here");
        String after = store.mark(SessionRegistry.MARK).orElse("");
        assertTrue(!after.contains("elsewhere") && after.contains("idle"), after);
    }

    @Test
    void softConflictsAreFilesOfTwoSessions() {
        beat("a", 1, "here", "src/types.ts", "src/a.ts");
        beat("b", 2, "here", "src/types.ts");
        beat("c", 3, "here", "src/c.ts");
        List<SoftConflict> conflicts = SessionRegistry.conflicts(registry.active());
        assertEquals(1, conflicts.size());
        assertEquals("src/types.ts", conflicts.get(0).file());
        assertEquals(Set.of("a", "b"), Set.copyOf(conflicts.get(0).sessions().stream().map(AgentSession::id).toList()));
    }

    @Test
    void aSessionKeepsItsMostRecentFiles() {
        for (int i = 0; i < SessionRegistry.MAX_FILES + 5; i++) {
            beat("a", 1, "here", "f" + i);
            clock.advance(Duration.ofSeconds(1));
        }
        AgentSession a = registry.active().get(0);
        assertEquals(SessionRegistry.MAX_FILES, a.files().size());
        assertTrue(a.files().containsKey("f" + (SessionRegistry.MAX_FILES + 4)) && !a.files().containsKey("f0"));
    }

    @Test
    void anUnreadableLineIsSkipped() {
        store.write(tx -> {
            tx.putMark(SessionRegistry.MARK, "garbage without fields\n");
            return null;
        });
        beat("a", 1, "here");
        assertEquals(List.of("a"), activeIds());
    }
}
