package dev.engram.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Episodes inferred from how memories are written: memories one client session writes close together
 * in time belong to one stretch of work or conversation, so each new memory {@code follows} the one
 * its session wrote just before it (issue 14; on LoCoMo, linking each turn to the previous one was
 * worth more than any ranking change). Recall's graph layer then gives a hit's episode neighbours a
 * share, as it does for any edge.
 * <p>Kept in memory: an MCP session lives in one server process and its id changes when it restarts,
 * so nothing older than the process could be continued anyway. Two sessions are never joined, even
 * when their writes interleave.
 */
final class Episodes {
    /**
     * A session that wrote nothing for this long has moved on: its next memory starts a new episode.
     * Long enough for an agent's pauses between steps of one task, short enough that a session left
     * open overnight does not chain the morning to the evening.
     */
    static final Duration GAP = Duration.ofMinutes(30);

    private record Last(String id, Instant at) {
    }

    private final Map<String, Last> lastBySession = new ConcurrentHashMap<>();

    /** The memory this session wrote last in this zone, if it did so within {@link #GAP} of {@code now}. */
    Optional<String> previous(String zone, String session, Instant now) {
        if (session == null) return Optional.empty();
        Last last = lastBySession.get(slot(zone, session));
        if (last == null || Duration.between(last.at(), now).compareTo(GAP) > 0) return Optional.empty();
        return Optional.of(last.id());
    }

    /** Past this many sessions, those idle for longer than {@link #GAP} are dropped (a long-running serve sees many). */
    static final int PRUNE_ABOVE = 1024;

    /** Called once the memory is committed. */
    void wrote(String zone, String session, String id, Instant at) {
        if (session == null) return;
        lastBySession.put(slot(zone, session), new Last(id, at));
        if (lastBySession.size() > PRUNE_ABOVE) {
            Instant cutoff = at.minus(GAP);
            lastBySession.values().removeIf(last -> last.at().isBefore(cutoff));
        }
    }

    int sessionsTracked() {
        return lastBySession.size();
    }

    private static String slot(String zone, String session) {
        return zone + '\0' + session;
    }
}
