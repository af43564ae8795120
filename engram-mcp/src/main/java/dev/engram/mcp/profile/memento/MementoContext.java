package dev.engram.mcp.profile.memento;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.session.SeenMemories;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What Memento's tools share: the engine, the workspace (Memento's isolation, Engram's zone), the clock and the fragment mapping. */
final class MementoContext {
    /** Memento isolates by workspace; in Engram that is the zone. */
    static final String ZONE_ARGUMENT = "workspace";

    /** At most this many (workspace, session, topic) cases are remembered for remember's default caseId. */
    static final int MAX_SESSION_CASES = 10_000;

    final ProfileContext profile;
    final Fragments fragments;
    final Clock clock;
    /** What context last gave each MCP session: recall's excludeSeen leaves those out (Memento's seen ids). */
    final SeenMemories seen;
    /** The case each (workspace, MCP session, topic) is on, for remember's default caseId; least recently used go first. */
    private final Map<String, String> sessionCases = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_SESSION_CASES;
        }
    };

    MementoContext(ProfileContext profile, Clock clock) {
        this.profile = profile;
        this.clock = clock;
        this.fragments = new Fragments(profile.engines());
        this.seen = new SeenMemories(clock);
    }

    /** The case this session's earlier fragments of {@code topic} in {@code zone} are on, if any. */
    synchronized Optional<String> sessionCase(String zone, String session, String topic) {
        return Optional.ofNullable(sessionCases.get(caseKey(zone, session, topic)));
    }

    synchronized void sessionCase(String zone, String session, String topic, String caseId) {
        sessionCases.put(caseKey(zone, session, topic), caseId);
    }

    private static String caseKey(String zone, String session, String topic) {
        return zone + '\0' + session + '\0' + topic.strip().toLowerCase(java.util.Locale.ROOT);
    }

    Engine engine() {
        return profile.engine();
    }

    /** What {@code read} finds, or nothing where the zone is unknown or the caller may not read it. */
    static <T> List<T> readable(java.util.function.Supplier<List<T>> read) {
        try {
            return read.get();
        } catch (dev.engram.error.NotFoundException e) {
            return List.of();
        }
    }

    /** The caller's workspace as a zone ({@link Workspaces}), else the server's zone. */
    String zone(ToolArgs args) {
        String w = args.textOr(ZONE_ARGUMENT);
        return w == null || w.isBlank() ? profile.zone(args) : Workspaces.zoneOf(w);
    }

    Instant now() {
        return clock.instant();
    }

    List<Memory> live(String zone) {
        Instant now = now();
        return fragments.records(zone).stream().map(ExportRecord::memory).filter(m -> Fragments.live(m, now)).toList();
    }

    /** The live fragments the caller may be shown: another session's working memory ({@code scope: session}) is not. */
    List<Memory> live(String zone, dev.engram.mcp.tool.ToolArgs a) {
        return live(zone).stream().filter(m -> visible(m, a)).toList();
    }

    /**
     * Working memory belongs to the session that wrote it, as Memento keeps it per session (never in the shared
     * record): no other session recalls it or gets it as its own in {@code context}.
     */
    static boolean visible(Memory m, dev.engram.mcp.tool.ToolArgs a) {
        return !m.tags().contains(Fragments.SESSION_SCOPE) || java.util.Objects.equals(m.session(), a.caller().session());
    }

    /** The fragment of {@code zone} with this id or key, any status: a direct lookup, not a scan of the zone. */
    Optional<ExportRecord> record(String zone, String id) {
        return engine().record(zone, id);
    }

    /** The live fragment {@code id} (field {@code field}), or a NotFound naming the workspace. */
    ExportRecord require(String field, String zone, String id) {
        MemoryRules.requireWellFormed(field, id);
        return record(zone, id.strip()).filter(r -> Fragments.live(r.memory(), now()))
                .orElseThrow(() -> new NotFoundException("no fragment with " + field + " '" + MemoryRules.shown(id).replace("'", "")
                        + "' in workspace " + MemoryRules.shown(zone) + "; recall or context first to get a fragment id"));
    }
}
