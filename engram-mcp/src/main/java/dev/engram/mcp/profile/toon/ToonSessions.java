package dev.engram.mcp.profile.toon;

import dev.engram.engine.session.AgentSession;
import dev.engram.engine.session.SessionRegistry;
import dev.engram.engine.session.SoftConflict;
import dev.engram.mcp.server.SessionHeartbeat;
import dev.engram.mcp.tool.ToolArgs;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The sessions of every process on this store ({@link SessionRegistry}) in toon's words: memory_sessions'
 * report, the sessions section of context_brief and context_generate, and memory_checkpoint's files.
 * The caller is found by the id its heartbeat used (TOON_MEMORY_SESSION_ID, else the MCP session).
 */
final class ToonSessions {
    private final ToonContext c;

    ToonSessions(ToonContext c) {
        this.c = c;
    }

    String selfId(ToolArgs args) {
        return SessionHeartbeat.sessionId(c.setting(ToonProfile.SESSION_ID_SETTING), args.caller());
    }

    /**
     * Every active session on this project: the store's (every Engram process on it), then those of toon-memory
     * processes still running beside Engram ({@link ToonSessionFiles}), newest first.
     */
    List<AgentSession> active() {
        SessionRegistry registry = c.engine().sessions();
        return ToonSessionFiles.withToonSessions(registry.active(), c.memoryDir(), registry.host(), c.now());
    }

    Optional<AgentSession> self(ToolArgs args) {
        String id = selfId(args);
        return active().stream().filter(s -> s.id().equals(id)).findFirst();
    }

    /** memory_sessions, as toon prints it. */
    String report(ToolArgs args, boolean conflictsOnly) {
        String selfId = selfId(args);
        List<AgentSession> active = active();
        List<SoftConflict> conflicts = SessionRegistry.conflicts(active);
        if (conflictsOnly) {
            if (conflicts.isEmpty()) return "✅ No soft conflicts between active sessions.";
            return "🔥 Soft conflicts (" + conflicts.size() + "):\n\n" + conflicts.stream()
                    .map(k -> "⚠️ " + k.file() + "\n   ↔ " + k.sessions().stream().map(s -> who(s) + " (" + s.id() + ")")
                            .collect(Collectors.joining(", "))).collect(Collectors.joining("\n\n"));
        }
        if (active.isEmpty()) {
            return "🟢 No other active sessions in this project.\n(This session: " + selfId + " @ " + branch(args.caller().branch()) + ")";
        }
        StringBuilder b = new StringBuilder("🧭 Active sessions (").append(active.size()).append(") — window ")
                .append(SessionRegistry.WINDOW.toMinutes()).append(" min:\n");
        for (AgentSession s : active) {
            b.append("\n• ").append(agent(s)).append(" @ ").append(branch(s.branch())).append(s.id().equals(selfId) ? " (you)" : "")
                    .append("\n   id: ").append(s.id()).append(" · pid ").append(s.pid()).append(" on ").append(s.host())
                    .append("\n   ").append(minutesAgo(s)).append(" min ago");
            List<String> files = s.files().keySet().stream().limit(8).toList();
            if (!files.isEmpty()) {
                b.append("\n   Files:");
                files.forEach(f -> b.append("\n      • ").append(f));
            }
            b.append('\n');
        }
        if (conflicts.isEmpty()) {
            b.append("\n✅ No soft conflicts detected.");
        } else {
            b.append("\n🔥 Soft conflicts (").append(conflicts.size()).append("):");
            for (SoftConflict k : conflicts) {
                b.append("\n   ⚠️ ").append(k.file()).append("  ↔  ")
                        .append(k.sessions().stream().map(ToonSessions::who).collect(Collectors.joining(", ")));
            }
        }
        return b.toString();
    }

    /** The sessions section of context_brief (toon's "## Sessions"). */
    String brief(ToolArgs args) {
        String selfId = selfId(args);
        List<AgentSession> active = active();
        List<SoftConflict> conflicts = SessionRegistry.conflicts(active);
        String branch = branch(args.caller().branch() != null ? args.caller().branch()
                : self(args).map(AgentSession::branch).orElse(null));
        if (active.stream().allMatch(s -> s.id().equals(selfId)) && conflicts.isEmpty()) {
            return "## Sessions\nBranch: " + branch + " | No other active sessions";
        }
        StringBuilder b = new StringBuilder("## Sessions (").append(active.size()).append(" active) — branch: ").append(branch);
        for (AgentSession s : active.stream().limit(5).toList()) {
            b.append("\n- ").append(who(s)).append(" (").append(minutesAgo(s)).append("min, ").append(s.files().size())
                    .append(" files)").append(s.id().equals(selfId) ? " ← you" : "");
        }
        if (!conflicts.isEmpty()) {
            b.append("\n\n**Soft conflicts (").append(conflicts.size()).append("):**");
            for (SoftConflict k : conflicts.stream().limit(3).toList()) {
                b.append("\n- ").append(k.file()).append(" ↔ ")
                        .append(k.sessions().stream().map(ToonSessions::agent).collect(Collectors.joining(" + ")));
            }
        }
        return b.toString();
    }

    /** The files this session touched, as memory_checkpoint records them. */
    List<String> ownFiles(ToolArgs args) {
        return self(args).map(s -> List.copyOf(s.files().keySet())).orElse(List.of());
    }

    private long minutesAgo(AgentSession s) {
        return Math.max(0, Math.round(Duration.between(s.lastSeen(), c.now()).toSeconds() / 60.0));
    }

    private static String who(AgentSession s) {
        return agent(s) + "@" + branch(s.branch());
    }

    private static String agent(AgentSession s) {
        return s.agent() == null ? "agent" : s.agent();
    }

    private static String branch(String branch) {
        return branch == null ? "unknown" : branch;
    }
}
