package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;

/**
 * toon's session checkpoint: one {@code knowledge} memory per session, keyed {@code checkpoint-<id8>},
 * expiring after 7 days, holding the date, a note, the branch and up to 10 touched files. Written by
 * {@code memory_checkpoint} and by {@code engram hook stop} with the toon profile, through this one path.
 */
public final class ToonCheckpoint {
    /** toon keeps a checkpoint a week. */
    public static final String TTL = "7d";
    /** At most this many touched files are listed (toon's limit). */
    public static final int MAX_FILES = 10;
    /**
     * A listed path keeps at most its last this many characters, and a note at most {@link #MAX_NOTE_CHARS}: the
     * checkpoint is one memory, whatever paths the session's tools were given (up to 1,024 characters each).
     */
    static final int MAX_SHOWN_PATH_CHARS = 200;
    static final int MAX_NOTE_CHARS = 4_000;

    private ToonCheckpoint() {
    }

    /** What was saved, and the text saved. */
    public record Saved(Memory memory, String content) {
    }

    /** The key for a session: {@code checkpoint-} and the first 8 characters of its id (the pid, base 36, without one). */
    public static String key(String sessionId) {
        String id = sessionId == null || sessionId.isBlank() ? Long.toString(ProcessHandle.current().pid(), 36)
                : sessionId.strip().replaceAll("[^A-Za-z0-9]", "").toLowerCase(java.util.Locale.ROOT);
        if (id.isEmpty()) id = Long.toString(ProcessHandle.current().pid(), 36);
        return "checkpoint-" + (id.length() > 8 ? id.substring(0, 8) : id);
    }

    /** A touched file as listed: its path, or "…" and the path's end (the file's name) when it is long. */
    static String shown(String path) {
        String p = path.strip();
        return p.length() <= MAX_SHOWN_PATH_CHARS ? p : "…" + p.substring(p.length() - (MAX_SHOWN_PATH_CHARS - 1));
    }

    /** Upserts the session's checkpoint (the same key replaces the last one). */
    public static Saved save(Engine engine, String zone, Instant now, String sessionId, String session, String branch, String note,
                             List<String> files) {
        if (note != null && note.strip().length() > MAX_NOTE_CHARS) {
            throw new InvalidArgumentException("note", "is " + note.strip().length() + " characters, over the limit of " + MAX_NOTE_CHARS
                    + "; say in a sentence or two what you were doing");
        }
        List<String> touched = files == null ? List.of()
                : files.stream().filter(f -> f != null && !f.isBlank()).map(ToonCheckpoint::shown).distinct().toList();
        String content = "Checkpoint " + now.toString().substring(0, 16).replace('T', ' ') + " UTC"
                + (note == null || note.isBlank() ? "" : ": " + note.strip())
                + (branch == null || branch.isBlank() ? "" : "\nBranch: " + branch)
                + (touched.isEmpty() ? "" : "\nFiles touched: " + String.join(", ", touched.stream().limit(MAX_FILES).toList())
                        + (touched.size() > MAX_FILES ? " (+" + (touched.size() - MAX_FILES) + " more)" : ""));
        RememberResult r = engine.remember(new RememberCommand(content, key(sessionId), MemoryType.FACT, List.of("checkpoint"),
                zone, null, TTL, null, null, null, null, true, session, branch == null || branch.isBlank() ? null : branch, false, null));
        return new Saved(r.memory(), content);
    }
}
