package dev.engram.mcp.server;

import dev.engram.engine.Engine;
import dev.engram.engine.session.Heartbeat;
import dev.engram.engine.session.SessionRegistry;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.AroundTool;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ProjectBranch;
import dev.engram.mcp.tool.ToolArgs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's part in {@link SessionRegistry}: every tool call of a served profile records its session
 * (agent, branch, pid, the files its arguments name) before the tool runs, so {@code memory_sessions} sees
 * the caller too. Throttled: a session's heartbeat is written at most once per {@link #THROTTLE}, or at
 * once when a call names a file the session has not touched yet, so a conflict shows without waiting; any
 * other call costs a map lookup. A failing heartbeat never fails the call: presence is advisory.
 */
public final class SessionHeartbeat {
    public static final Duration THROTTLE = Duration.ofSeconds(30);
    /** The arguments that name files: toon's {@code file}, {@code files} and {@code path_scope} (any profile's). */
    static final List<String> FILE_ARGUMENTS = List.of("file", "files", "path_scope");
    private static final Logger log = LoggerFactory.getLogger(SessionHeartbeat.class);

    private final Supplier<Engine> engines;
    private final String fixedId;
    private final ProjectBranch project;
    private final Clock clock;
    private final long pid = ProcessHandle.current().pid();
    private final Map<String, Sent> sent = new HashMap<>();

    private record Sent(Instant at, Set<String> files) {
    }

    /** {@code fixedId}: the session id the environment set (TOON_MEMORY_SESSION_ID), else null for the MCP session's. */
    public SessionHeartbeat(Supplier<Engine> engines, String fixedId, ProjectBranch project, Clock clock) {
        this.engines = Objects.requireNonNull(engines, "engines");
        this.fixedId = fixedId == null || fixedId.isBlank() ? null : fixedId.strip();
        this.project = Objects.requireNonNull(project, "project");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The id a call's session is recorded under: the fixed one, else the MCP client and session
     * ({@code claude-code/3f2a…}), else this process ({@code pid-4711}) for a call that has neither.
     */
    public static String sessionId(String fixedId, Caller caller) {
        if (fixedId != null && !fixedId.isBlank()) return fixedId.strip();
        if (caller.session() != null) return caller.session();
        return "pid-" + ProcessHandle.current().pid();
    }

    /** The profile with every tool recording a heartbeat first. */
    public ToolProfile around(ToolProfile profile) {
        return profile.withTools(t -> new AroundTool(t, this::record, (args, reply) -> reply));
    }

    /** Records the call's session now when the throttle allows it or the call names a new file. */
    void record(ToolArgs args) {
        try {
            Set<String> files = new LinkedHashSet<>();
            for (String f : files(args)) files.add(project.relative(f));
            String id = sessionId(fixedId, args.caller());
            Instant now = clock.instant();
            synchronized (sent) {
                Sent last = sent.get(id);
                boolean due = last == null || !now.isBefore(last.at().plus(THROTTLE)) || !last.files().containsAll(files);
                if (!due) return;
                Set<String> known = new LinkedHashSet<>(last == null ? Set.of() : last.files());
                known.addAll(files);
                // the branch is read here, not per call: a read-only call's caller carries none
                String branch = args.caller().branch() != null ? args.caller().branch() : project.current();
                engines.get().sessions().beat(new Heartbeat(id, args.caller().client(), engines.get().sessions().host(), pid,
                        branch, files));
                sent.put(id, new Sent(now, known));
            }
        } catch (RuntimeException e) {
            log.debug("session heartbeat not recorded: {}", e.toString());
        }
    }

    /** The files a call names; an argument of the wrong type is the tool's to report, and names none here. */
    static Set<String> files(ToolArgs args) {
        Set<String> out = new LinkedHashSet<>();
        for (String name : FILE_ARGUMENTS) {
            if (!args.declares(name)) continue;
            try {
                // one path (a comma may be part of it, or of a glob's {a,b}); a list only where the argument is one
                List<String> values = name.equals("files") ? args.list(name)
                        : args.textOr(name) == null ? null : List.of(args.textOr(name));
                if (values == null) continue;
                for (String v : values) {
                    String f = v.strip();
                    if (f.startsWith("./")) f = f.substring(2);
                    if (!f.isEmpty()) out.add(f);
                }
            } catch (RuntimeException e) {
                // not a string or a list of strings: the tool itself says what to send
            }
        }
        return out;
    }
}
