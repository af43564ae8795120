package dev.engram.engine.lifecycle;

import dev.engram.engine.MarkText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A zone's log of tool feedback ({@link ToolFeedback}), kept in one store mark so it lives as long as the store and
 * is shared by every process on it: a header line {@code #v1 <next id>}, then one line per rating, oldest first,
 * tab-separated and escaped. Bounded: the newest {@link #KEEP} ratings are kept, older ones dropped when a new one
 * is logged (the count of all ratings stays in the header). A line that does not read back is skipped.
 * {@link #summarize} turns it into what a profile shows: counts by tool, rates, recent suggestions and the
 * per-session precision over the last 30 days (Memento's evaluation).
 */
public final class FeedbackLog {
    public static final String MARK = "lifecycle.tool-feedback/";
    public static final int KEEP = 200;
    /** The evaluation's window: ratings of the last 30 days, from the 100 sessions that rated last. */
    public static final Duration EVALUATION_WINDOW = Duration.ofDays(30);
    public static final int EVALUATION_SESSIONS = 100, RECENT_SUGGESTIONS = 5;

    private FeedbackLog() {
    }

    /** The log as read: the id the next rating gets (ratings logged so far + 1) and the kept ratings, oldest first. */
    public record Entries(long next, List<ToolFeedback> kept) {
        public Entries {
            kept = List.copyOf(kept);
        }

        public long total() {
            return next - 1;
        }
    }

    /** Counts of one tool's ratings among those kept. */
    public record ToolStats(int total, int relevant, int sufficient, int sampled, int voluntary) {
    }

    /**
     * Over the ratings of the last 30 days, per session (the 100 that rated last): the mean of
     * {@code min(relevant, 5) / min(ratings, 5)} and of the sufficient share; nulls when no session rated.
     */
    public record Evaluation(Double precisionAt5, Double sufficientRate, int sampleSessions) {
    }

    /** What a profile shows of the log. Rates are over the kept ratings, null when there are none. */
    public record Summary(long total, int kept, Double relevantRate, Double sufficientRate, Map<String, ToolStats> byTool,
                          List<ToolFeedback> recentSuggestions, Evaluation evaluation) {
    }

    static String mark(String zone) {
        return MARK + (zone == null ? "" : zone);
    }

    static Entries decode(String text) {
        long next = 1;
        List<ToolFeedback> kept = new ArrayList<>();
        if (text == null || text.isEmpty()) return new Entries(next, kept);
        for (String line : text.split("\n")) {
            if (line.isEmpty()) continue;
            if (line.startsWith("#v1 ")) {
                try {
                    next = Math.max(next, Long.parseLong(line.substring(4).strip()));
                } catch (NumberFormatException unreadable) {
                    // keep counting from the entries
                }
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 10) continue;
            try {
                List<String> ids = f[9].isEmpty() ? List.of() : Arrays.asList(f[9].split(","));
                ToolFeedback t = new ToolFeedback(Long.parseLong(f[0]), Instant.ofEpochMilli(Long.parseLong(f[1])),
                        blankToNull(MarkText.unescape(f[2])), MarkText.unescape(f[3]), f[4].equals("1"), f[5].equals("1"),
                        blankToNull(MarkText.unescape(f[7])), blankToNull(MarkText.unescape(f[8])), f[6], ids);
                kept.add(t);
                next = Math.max(next, t.id() + 1);
            } catch (RuntimeException unreadable) {
                // skipped, see the class comment
            }
        }
        return new Entries(next, kept);
    }

    static String encode(Entries e) {
        StringBuilder b = new StringBuilder("#v1 ").append(e.next()).append('\n');
        for (ToolFeedback t : e.kept()) {
            b.append(t.id()).append('\t').append(t.at().toEpochMilli()).append('\t').append(MarkText.escape(nz(t.session())))
                    .append('\t').append(MarkText.escape(t.tool())).append('\t').append(t.relevant() ? '1' : '0').append('\t')
                    .append(t.sufficient() ? '1' : '0').append('\t').append(t.trigger()).append('\t')
                    .append(MarkText.escape(nz(t.suggestion()))).append('\t').append(MarkText.escape(nz(t.context()))).append('\t')
                    .append(String.join(",", t.memoryIds())).append('\n');
        }
        return b.toString();
    }

    /** {@code e} with {@code t} appended as rating number {@code e.next()}, the oldest dropped beyond {@link #KEEP}. */
    static Entries append(Entries e, ToolFeedback t) {
        List<ToolFeedback> kept = new ArrayList<>(e.kept());
        kept.add(t);
        while (kept.size() > KEEP) kept.remove(0);
        return new Entries(e.next() + 1, kept);
    }

    public static Summary summarize(Entries e, Instant now) {
        int relevant = 0, sufficient = 0;
        Map<String, int[]> tools = new TreeMap<>();
        for (ToolFeedback t : e.kept()) {
            if (t.relevant()) relevant++;
            if (t.sufficient()) sufficient++;
            int[] c = tools.computeIfAbsent(t.tool(), k -> new int[5]);
            c[0]++;
            if (t.relevant()) c[1]++;
            if (t.sufficient()) c[2]++;
            if (t.trigger().equals("sampled")) c[3]++;
            else c[4]++;
        }
        Map<String, ToolStats> byTool = new LinkedHashMap<>();
        tools.forEach((k, c) -> byTool.put(k, new ToolStats(c[0], c[1], c[2], c[3], c[4])));
        List<ToolFeedback> suggestions = new ArrayList<>();
        for (int i = e.kept().size() - 1; i >= 0 && suggestions.size() < RECENT_SUGGESTIONS; i--) {
            if (e.kept().get(i).suggestion() != null) suggestions.add(e.kept().get(i));
        }
        int n = e.kept().size();
        return new Summary(e.total(), n, n == 0 ? null : round((double) relevant / n),
                n == 0 ? null : round((double) sufficient / n), byTool, suggestions, evaluation(e.kept(), now));
    }

    private static Evaluation evaluation(List<ToolFeedback> kept, Instant now) {
        Instant since = now.minus(EVALUATION_WINDOW);
        // session -> {ratings, relevant, sufficient}, in order of each session's last rating
        LinkedHashMap<String, int[]> sessions = new LinkedHashMap<>();
        for (ToolFeedback t : kept) {
            if (t.session() == null || t.at().isBefore(since)) continue;
            int[] c = sessions.remove(t.session());
            if (c == null) c = new int[3];
            c[0]++;
            if (t.relevant()) c[1]++;
            if (t.sufficient()) c[2]++;
            sessions.put(t.session(), c); // re-inserted: the last to rate comes last
        }
        List<int[]> last = new ArrayList<>(sessions.values());
        if (last.size() > EVALUATION_SESSIONS) last = last.subList(last.size() - EVALUATION_SESSIONS, last.size());
        if (last.isEmpty()) return new Evaluation(null, null, 0);
        double precision = 0, suff = 0;
        for (int[] c : last) {
            precision += Math.min(c[1], 5) / (double) Math.min(c[0], 5);
            suff += c[2] / (double) c[0];
        }
        return new Evaluation(round(precision / last.size()), round(suff / last.size()), last.size());
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }


}
