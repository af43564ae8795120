package dev.engram.engine.session;

import dev.engram.spi.MemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongPredicate;

/**
 * Which agent sessions work on this store now, across every process sharing it (toon-memory's
 * multi-session presence, seed-systems §1.6/§1.7). Each heartbeat is one store write that reads, updates
 * and writes back one mark ({@link #MARK}), so processes never lose each other's sessions: the store
 * serializes writers across processes. A session is active while its last heartbeat is within
 * {@link #WINDOW}; a session past the window whose process is dead on this host is dropped lazily, by the
 * next heartbeat or listing; one of another host, whose process cannot be checked from here, after
 * {@link #FOREIGN_PRUNE}. Callers throttle heartbeats (the MCP server writes at most one per session every
 * 30 seconds unless a call names a new file), so presence costs a write per half minute, not per call.
 */
public final class SessionRegistry {
    public static final String MARK = "sessions/active";
    /** toon's SESSION_TTL_MS: active while seen within 10 minutes. */
    public static final Duration WINDOW = Duration.ofMinutes(10);
    /** A session of another host is dropped a day after it was last seen. */
    public static final Duration FOREIGN_PRUNE = Duration.ofDays(1);
    /** Files kept per session, most recently touched first: enough to see a conflict, bounded for the mark. */
    public static final int MAX_FILES = 50;

    private final MemoryStore store;
    private final Clock clock;
    private final String host;
    private final LongPredicate alive;

    /** {@code alive} tells whether a process id of {@code host} (this machine) still runs. */
    public SessionRegistry(MemoryStore store, Clock clock, String host, LongPredicate alive) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.host = Objects.requireNonNull(host, "host");
        this.alive = Objects.requireNonNull(alive, "alive");
    }

    /** The registry of this machine's processes: pids are checked with the operating system. */
    public static SessionRegistry local(MemoryStore store, Clock clock) {
        return new SessionRegistry(store, clock, HostName.current(),
                pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    public String host() {
        return host;
    }

    /** Records a heartbeat: the session is seen now, with its branch, and these files touched now. */
    public AgentSession beat(Heartbeat beat) {
        Instant now = clock.instant();
        return store.write(tx -> {
            List<AgentSession> all = SessionLines.decode(tx.mark(MARK).orElse(""));
            AgentSession previous = all.stream().filter(s -> s.id().equals(beat.id())).findFirst().orElse(null);
            Map<String, Instant> files = new LinkedHashMap<>();
            if (previous != null) files.putAll(previous.files());
            for (String f : beat.files()) files.put(f, now);
            AgentSession updated = new AgentSession(beat.id(), beat.agent() != null ? beat.agent() : previous == null ? null
                    : previous.agent(), beat.host(), beat.pid(), beat.branch(), previous == null ? now : previous.startedAt(), now,
                    newest(files));
            List<AgentSession> kept = new ArrayList<>();
            kept.add(updated);
            for (AgentSession s : all) if (!s.id().equals(beat.id()) && !prunable(s, now)) kept.add(s);
            tx.putMark(MARK, SessionLines.encode(kept));
            return updated;
        });
    }

    /** Every session seen within the window, the most recently seen first; dead ones are pruned on the way. */
    public List<AgentSession> active() {
        Instant now = clock.instant();
        List<AgentSession> all = SessionLines.decode(store.mark(MARK).orElse(""));
        if (all.stream().anyMatch(s -> prunable(s, now))) prune();
        return all.stream().filter(s -> isActive(s, now))
                .sorted(Comparator.comparing(AgentSession::lastSeen).reversed()).toList();
    }

    /** Files touched by two or more of these sessions, in the order the files were first met. */
    public static List<SoftConflict> conflicts(List<AgentSession> sessions) {
        Map<String, List<AgentSession>> byFile = new LinkedHashMap<>();
        for (AgentSession s : sessions) {
            for (String f : s.files().keySet()) byFile.computeIfAbsent(f, k -> new ArrayList<>()).add(s);
        }
        return byFile.entrySet().stream().filter(e -> e.getValue().size() >= 2)
                .map(e -> new SoftConflict(e.getKey(), e.getValue())).toList();
    }

    private void prune() {
        store.write(tx -> {
            Instant now = clock.instant();
            List<AgentSession> all = SessionLines.decode(tx.mark(MARK).orElse(""));
            List<AgentSession> kept = all.stream().filter(s -> !prunable(s, now)).toList();
            if (kept.size() != all.size()) tx.putMark(MARK, SessionLines.encode(kept));
            return null;
        });
    }

    private static boolean isActive(AgentSession s, Instant now) {
        return !s.lastSeen().isBefore(now.minus(WINDOW));
    }

    private boolean prunable(AgentSession s, Instant now) {
        if (isActive(s, now)) return false;
        if (s.host().equals(host)) return !alive.test(s.pid());
        return s.lastSeen().isBefore(now.minus(FOREIGN_PRUNE));
    }

    private static Map<String, Instant> newest(Map<String, Instant> files) {
        if (files.size() <= MAX_FILES) return files;
        Map<String, Instant> kept = new LinkedHashMap<>();
        files.entrySet().stream().sorted(Map.Entry.<String, Instant>comparingByValue().reversed()).limit(MAX_FILES)
                .forEach(e -> kept.put(e.getKey(), e.getValue()));
        return kept;
    }
}
