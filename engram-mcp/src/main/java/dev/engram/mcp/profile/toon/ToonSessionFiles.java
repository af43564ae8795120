package dev.engram.mcp.profile.toon;

import dev.engram.engine.session.AgentSession;
import dev.engram.engine.session.SessionRegistry;
import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The heartbeat files toon-memory's own processes keep in {@code .toon-memory/memory/sessions/<id>.json}
 * ({@code {id, agent, pid, branch, startedAt, lastSeen, ended, files: {path: ISO}}}): its MCP server and its
 * SessionStart and capture hook scripts write one per session. While a project moves over, some agents may
 * still run toon (another window, a teammate's hooks), and memory_sessions exists to show every session
 * working on the project and the files two of them touch; so the active ones are read beside Engram's own.
 * Read only: each toon process writes and prunes its own file, and Engram never writes there.
 */
public final class ToonSessionFiles {
    private static final JsonText JSON = JsonText.standard();
    /** A session's file is a few hundred bytes; a larger one is not toon's heartbeat. */
    private static final long MAX_FILE = 256 * 1024;

    private final Path dir;
    private final String host;

    /** {@code memoryDir}: toon's {@code .toon-memory/memory} folder ({@link ToonData#memoryFolder}). */
    ToonSessionFiles(Path memoryDir, String host) {
        this.dir = memoryDir.resolve("sessions");
        this.host = host;
    }

    /**
     * {@code engram}'s active sessions (the store's) with the active toon-memory sessions recorded under
     * {@code memoryDir} whose id they do not already hold, newest first: what memory_sessions and the
     * session-start hook show.
     */
    public static List<AgentSession> withToonSessions(List<AgentSession> engram, Path memoryDir, String host, Instant now) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        engram.forEach(s -> ids.add(s.id()));
        List<AgentSession> toon = new ToonSessionFiles(memoryDir, host).active(now).stream().filter(s -> !ids.contains(s.id())).toList();
        if (toon.isEmpty()) return engram;
        List<AgentSession> all = new ArrayList<>(engram);
        all.addAll(toon);
        all.sort((a, b) -> b.lastSeen().compareTo(a.lastSeen()));
        return all;
    }

    /** toon's sessions seen within toon's window and not ended, in no order; unreadable files are skipped. */
    List<AgentSession> active(Instant now) {
        if (!Files.isDirectory(dir)) return List.of();
        List<AgentSession> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) {
                AgentSession s = read(f);
                if (s != null && !s.lastSeen().isBefore(now.minus(SessionRegistry.WINDOW))) out.add(s);
            }
        } catch (IOException | RuntimeException e) {
            return List.of(); // presence is a hint: a folder that cannot be listed shows no toon sessions
        }
        return out;
    }

    /** One heartbeat file, or null when it is not one (being written, ended, or another shape). */
    private AgentSession read(Path f) {
        try {
            if (!Files.isRegularFile(f) || Files.size(f) > MAX_FILE) return null;
            Map<String, Object> m = JSON.readObject(Files.readString(f, StandardCharsets.UTF_8));
            if (Boolean.TRUE.equals(m.get("ended"))) return null; // toon counts an ended session out of its conflicts
            String id = text(m.get("id"));
            Instant lastSeen = instant(m.get("lastSeen"));
            if (id == null || lastSeen == null) return null;
            Instant started = instant(m.get("startedAt"));
            Map<String, Instant> touched = new LinkedHashMap<>();
            if (m.get("files") instanceof Map<?, ?> files) {
                files.forEach((path, at) -> {
                    Instant t = instant(at);
                    if (path instanceof String p && !p.isBlank()) touched.put(p, t == null ? lastSeen : t);
                });
            }
            long pid = m.get("pid") instanceof Number n ? n.longValue() : 0;
            String agent = text(m.get("agent"));
            return new AgentSession(id, agent == null ? "toon-memory" : agent + " (toon-memory)", host, pid,
                    text(m.get("branch")), started == null ? lastSeen : started, lastSeen, touched);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String text(Object o) {
        return o instanceof String s && !s.isBlank() ? s.strip() : null;
    }

    private static Instant instant(Object o) {
        if (!(o instanceof String s)) return null;
        try {
            return Instant.parse(s.strip());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
