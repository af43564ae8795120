package dev.engram.engine.session;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What one process says about one of its sessions: who it is, where it runs, the branch checked out now
 * and the files named since its last heartbeat (added to those it already touched).
 *
 * <p>Every part but the pid comes from a client (its name, its arguments) and is shown to every other session's
 * agent, so each is made one line and bounded here: a name with newlines could print made-up sessions into another
 * agent's listing, and a 100,000-character name or path would fill it. A file longer than {@link #MAX_FILE} (the
 * longest path a tool accepts) is not a file any tool took, and is left out.
 */
public record Heartbeat(String id, String agent, String host, long pid, String branch, Set<String> files) {
    public static final int MAX_ID = 200;
    public static final int MAX_AGENT = 100;
    public static final int MAX_FILE = 1024;

    public Heartbeat {
        id = bounded(oneLine(Objects.requireNonNull(id, "id"), Integer.MAX_VALUE));
        if (id.isEmpty()) throw new IllegalArgumentException("a session id must not be blank");
        agent = agent == null ? null : oneLine(agent, MAX_AGENT);
        host = oneLine(Objects.requireNonNull(host, "host"), MAX_ID);
        branch = branch == null ? null : oneLine(branch, MAX_ID);
        Set<String> kept = new LinkedHashSet<>();
        for (String f : files) {
            String line = f == null ? "" : oneLine(f, Integer.MAX_VALUE);
            if (!line.isEmpty() && line.length() <= MAX_FILE) kept.add(line);
        }
        files = Set.copyOf(kept);
    }

    /** Control characters and line breaks as single spaces, trimmed, at most {@code max} characters. */
    static String oneLine(String text, int max) {
        String line = text.replaceAll("[\\p{Cntrl}\\u2028\\u2029\\u0085]+", " ").replaceAll(" {2,}", " ").strip();
        if (line.length() <= max) return line;
        int end = Character.isHighSurrogate(line.charAt(max - 1)) ? max - 1 : max;
        return line.substring(0, end);
    }

    /** An id of at most {@link #MAX_ID}: a longer one keeps its start and a digest of the whole, so two stay two. */
    private static String bounded(String id) {
        if (id.length() <= MAX_ID) return id;
        return oneLine(id, MAX_ID - 17) + "~" + dev.engram.crypto.Sha256.hex(id, 8);
    }
}
