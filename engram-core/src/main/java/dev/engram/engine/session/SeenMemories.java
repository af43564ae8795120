package dev.engram.engine.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which memories each agent session was last handed as its working context, so a later search in the same session
 * can leave them out instead of repeating them (Memento's "seen ids": what {@code context} injected, which
 * {@code recall} skips). Per transport session and in this process only: a session id belongs to one server process
 * (stdio: the process itself; HTTP: the server holding the session), and what a session was shown means nothing to
 * another. Bounded: a session's set is replaced by each {@link #replace} and forgotten {@link #TTL} after it was set;
 * at most {@link #MAX_IDS} ids a session and {@link #MAX_SESSIONS} sessions (the least recently used go first).
 */
public final class SeenMemories {
    public static final Duration TTL = Duration.ofHours(24);
    public static final int MAX_SESSIONS = 10_000, MAX_IDS = 1_000;

    private record Shown(Set<String> ids, Instant at) {
    }

    private final Clock clock;
    private final Map<String, Shown> bySession = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Shown> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    public SeenMemories(Clock clock) {
        this.clock = clock;
    }

    /** Records that {@code session} was just shown exactly {@code ids} (the previous set is dropped); no-op without a session. */
    public synchronized void replace(String session, Collection<String> ids) {
        if (session == null || session.isBlank()) return;
        LinkedHashSet<String> kept = new LinkedHashSet<>();
        for (String id : ids) {
            if (kept.size() == MAX_IDS) break;
            if (id != null) kept.add(id);
        }
        if (kept.isEmpty()) bySession.remove(session);
        else bySession.put(session, new Shown(Set.copyOf(kept), clock.instant()));
    }

    /** The ids {@code session} was last shown, empty without a session, when none were, or after {@link #TTL}. */
    public synchronized Set<String> seen(String session) {
        if (session == null || session.isBlank()) return Set.of();
        Shown s = bySession.get(session);
        if (s == null) return Set.of();
        if (!s.at().plus(TTL).isAfter(clock.instant())) {
            bySession.remove(session);
            return Set.of();
        }
        return s.ids();
    }
}
