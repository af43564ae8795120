package dev.engram.cli.hook;

import dev.engram.engine.session.AgentSession;
import dev.engram.engine.session.SessionRegistry;
import dev.engram.engine.session.SoftConflict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What {@code engram hook session-start} prints: the store's briefing, then the other agent sessions active on it and
 * the files two of them touched, all within one token budget (a token is four characters, as
 * {@code TokenEstimate} counts). Sessions and shared files are cut with a "… and N more" line: two sessions that
 * shared 800 files once printed 54,000 characters against a 2,000-token budget.
 */
public final class SessionBriefing {
    /**
     * Claude Code keeps at most 10,000 characters of a hook's additionalContext in the conversation (the rest goes to a
     * file the agent sees a preview of), so no budget may print more.
     */
    public static final int MAX_CHARS = 10_000;
    public static final int MIN_TOKENS = 50;
    public static final int MAX_TOKENS = MAX_CHARS / 4;
    /** The engine briefs nothing below this budget ({@code ContextQuery}). */
    private static final int MIN_MEMORY_TOKENS = 50;
    /** One session or file line: a path may be thousands of characters long, and one line must not take the section. */
    static final int LINE_MAX = 240;

    private SessionBriefing() {
    }

    /**
     * The briefing within {@code budgetTokens}: {@code memories} renders the store's briefing within a number of tokens
     * ("" when it has nothing to say), {@code active} are the sessions to name. The sessions take at most half the
     * budget while the memories need the rest, and whatever the memories leave. Empty when there is nothing to brief.
     */
    public static String compose(int budgetTokens, List<AgentSession> active, Instant now, IntFunction<String> memories) {
        int limit = Math.min(budgetTokens, MAX_TOKENS) * 4;
        List<String> sessionLines = sessionLines(active, now);
        List<String> fileLines = conflictLines(active);
        String sessions = sessions(active.size(), sessionLines, fileLines, active.isEmpty() ? 0 : limit / 2);
        String brief = memories(memories, limit - separated(sessions));
        // the memories left room: the sessions may use it
        if (!active.isEmpty()) sessions = sessions(active.size(), sessionLines, fileLines, limit - separated(brief));
        String out = brief.isEmpty() ? sessions : sessions.isEmpty() ? brief : brief + "\n\n" + sessions;
        return cut(out, limit);
    }

    /** Characters {@code part} takes with the blank line that separates it from the other part. */
    private static int separated(String part) {
        return part.isEmpty() ? 0 : part.length() + 2;
    }

    /**
     * The store's briefing in at most {@code maxChars}. Its budget prices the memory lines only, not the headers and
     * line breaks around them: a briefing that came out longer is asked again with its budget lowered by the excess.
     */
    private static String memories(IntFunction<String> memories, int maxChars) {
        int tokens = maxChars / 4;
        for (int attempt = 0; attempt < 4 && tokens >= MIN_MEMORY_TOKENS; attempt++) {
            String text = memories.apply(tokens);
            int over = text.length() - maxChars;
            if (over <= 0) return text;
            tokens -= (over + 3) / 4 + 1;
        }
        return "";
    }

    private static List<String> sessionLines(List<AgentSession> active, Instant now) {
        List<String> out = new ArrayList<>();
        for (AgentSession s : active) {
            long minutes = Math.max(0, Duration.between(s.lastSeen(), now).toMinutes());
            out.add(line("- " + (s.agent() == null || s.agent().isBlank() ? "agent" : s.agent())
                    + (s.branch() == null || s.branch().isBlank() ? "" : "@" + s.branch())
                    + " (pid " + s.pid() + ", " + (minutes == 0 ? "now" : minutes + " min ago")
                    + (s.files().isEmpty() ? "" : ", files: " + String.join(", ", s.files().keySet().stream().limit(5).toList()))
                    + ")"));
        }
        return out;
    }

    private static List<String> conflictLines(List<AgentSession> active) {
        List<String> out = new ArrayList<>();
        for (SoftConflict c : SessionRegistry.conflicts(active)) {
            out.add(line("- " + c.file() + " (" + c.sessions().size() + " sessions)"));
        }
        return out;
    }

    /** A line of at most {@link #LINE_MAX} characters, "…" where it was cut. */
    static String line(String text) {
        if (text.length() <= LINE_MAX) return text;
        int end = LINE_MAX - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) end--; // never half a character
        return text.substring(0, end) + "…";
    }

    /**
     * The other agent sessions working on this store now, and the files two of them touched (what a new session should
     * know before it edits the same files), in at most {@code maxChars}; the shared files get the room the sessions
     * leave, at least half when both are cut. Empty when there are none or not even the headers fit.
     */
    static String sessions(int count, List<String> sessionLines, List<String> fileLines, int maxChars) {
        if (sessionLines.isEmpty()) return "";
        String header = "Active sessions (" + count + ", seen in the last 10 min):";
        String filesHeader = "Files touched by more than one session:";
        String files = fileLines.isEmpty() ? "" : section(filesHeader, fileLines, "files", maxChars / 2);
        String list = section(header, sessionLines, "sessions", maxChars - separatedLine(files));
        if (list.isEmpty()) return "";
        files = fileLines.isEmpty() ? "" : section(filesHeader, fileLines, "files", maxChars - list.length() - 1);
        return files.isEmpty() ? list : list + "\n" + files;
    }

    private static int separatedLine(String part) {
        return part.isEmpty() ? 0 : part.length() + 1;
    }

    /** {@code header} and as many of {@code lines} as fit in {@code maxChars}, then "- … and N more NOUN"; "" if none fits. */
    static String section(String header, List<String> lines, String noun, int maxChars) {
        StringBuilder out = new StringBuilder(header);
        for (int i = 0; i < lines.size(); i++) {
            int left = lines.size() - i;
            String rest = left > 1 ? "\n" + more(left - 1, noun) : "";
            if (out.length() + 1 + lines.get(i).length() + rest.length() > maxChars) {
                String more = "\n" + more(left, noun);
                if (out.length() + more.length() > maxChars) return "";
                return out.append(more).toString();
            }
            out.append('\n').append(lines.get(i));
        }
        return out.length() > maxChars ? "" : out.toString();
    }

    private static String more(int n, String noun) {
        return "- … and " + n + " more " + noun;
    }

    /** The last guard: {@code text} cut at a line within {@code maxChars}. */
    private static String cut(String text, int maxChars) {
        if (text.length() <= maxChars) return text;
        int end = text.lastIndexOf('\n', maxChars - 2);
        return end <= 0 ? "" : text.substring(0, end) + "\n…";
    }
}
