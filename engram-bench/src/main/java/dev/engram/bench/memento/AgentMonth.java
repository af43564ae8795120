package dev.engram.bench.memento;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A deterministic month of an agent's Memento memories (same seed, same month), and the questions asked at its end.
 * Ten subsystems ("topics"), each with six facts an agent learns in its first week (port, lead, language, pool size,
 * timeout, release day); over the month it says them again word for word (repeats), in light rewordings and in
 * paraphrases (near-duplicates), and changes two of them in half the topics (a newer value that contradicts the
 * older fragment, remembered without {@code supersedes}, as a hurried agent does). On its first morning it also notes
 * five small dashboard details per topic (an old same-topic group by the month's end), and every evening it writes a
 * one-line day summary under {@code session_reflect}. The questions ask for each fact's current value and for two
 * of each topic's dashboard details. Each write names the fact it states ({@code fact}: a rewording states the same
 * fact, an update the same fact's new value), so an answer's repeats can be counted.
 */
final class AgentMonth {
    /** One remember call: when, by which session, and Memento's arguments. */
    record Write(Instant at, String session, String content, String topic, String type, Double importance, String kind,
                 String fact) {
    }

    /**
     * One question at the end: {@code expected} must appear in a fragment of the answer's top {@link #TOP}; for an
     * updated fact {@code stale} is the value it replaced (an answer that shows it above the current one misleads).
     */
    record Probe(String question, List<String> keywords, String expected, String stale, String kind) {
    }

    record Month(Instant start, Instant end, List<Write> writes, List<Probe> probes) {
    }

    static final int TOP = 5;
    private static final String[] TOPICS = {"billing", "auth", "search", "deploy", "ledger", "frontend", "queue", "cache",
            "logging", "mobile"};
    private static final String[] NAMES = {"Dana", "Ravi", "Mei", "Tomas", "Aylin", "Kofi", "Ines", "Jun", "Olga", "Priya",
            "Sven", "Lucia"};
    private static final String[] LANGUAGES = {"Go", "Kotlin", "Rust", "TypeScript", "Python", "Java", "Elixir", "Scala"};
    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"};
    private static final String[] PANELS = {"latency", "error", "throughput", "retry", "saturation"};
    private static final String[] METRICS = {"p99 milliseconds", "failed requests", "messages per second", "retries per minute",
            "CPU percent", "open sockets", "queue depth", "heap megabytes", "cache misses", "disk writes"};
    private static final String[] TASKS = {"a flaky test", "a slow query", "the release checklist", "a memory leak",
            "an alert threshold", "the onboarding doc", "a dependency upgrade", "a timeout in CI"};

    private AgentMonth() {
    }

    static Month generate(long seed, Instant start, int days) {
        return generate(seed, start, days, TOPICS.length);
    }

    /** The month over the first {@code topics} of the ten topics (fewer for a quick check of the harness). */
    static Month generate(long seed, Instant start, int days, int topics) {
        if (topics < 1 || topics > TOPICS.length) throw new IllegalArgumentException("topics must be 1.." + TOPICS.length);
        Random r = new Random(seed);
        List<Write> writes = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        Instant end = start.plus(Duration.ofDays(days)).plus(Duration.ofHours(1));
        for (int ti = 0; ti < topics; ti++) {
            String t = TOPICS[ti];
            String T = t.substring(0, 1).toUpperCase(Locale.ROOT) + t.substring(1);
            String session = "agent-week1-" + t;
            // the six facts, learnt in the first week
            int port = 8000 + r.nextInt(1000);
            String lead = NAMES[r.nextInt(NAMES.length)];
            String lang = LANGUAGES[r.nextInt(LANGUAGES.length)];
            int pool = 10 * (2 + r.nextInt(8));
            int timeout = 5 * (2 + r.nextInt(10));
            String day = DAYS[r.nextInt(DAYS.length)];
            Instant learnt = start.plus(Duration.ofHours(2 + r.nextInt(24 * 6)));
            String[][] facts = {
                    {"The " + t + " service listens on port " + port + ".", t + " service listens on port " + port,
                            "Port " + port + " is where " + t + " accepts its connections.",
                            "Which port does the " + t + " service listen on?", t + ",port", Integer.toString(port)},
                    {"The " + t + " team lead is " + lead + ".", "the " + t + " team's lead is " + lead,
                            lead + " leads the people who work on " + t + ".",
                            "Who leads the " + t + " team?", t + ",lead,team", lead},
                    {"The " + t + " service is written in " + lang + ".", "The " + t + " service is written in " + lang,
                            T + " is implemented in " + lang + ".",
                            "What language is the " + t + " service written in?", t + ",language", lang},
                    {"The " + t + " database pool allows max " + pool + " connections.", "the " + t + " database pool allows max "
                            + pool + " connections", "At most " + pool + " connections fit in the " + t + " pool.",
                            "How many connections does the " + t + " database pool allow?", t + ",pool,connections", Integer.toString(pool)},
                    {T + " requests time out after " + timeout + " seconds.", T + " requests time out after " + timeout + " seconds!",
                            "A " + t + " request gives up once " + timeout + " seconds have passed.",
                            "After how many seconds do " + t + " requests time out?", t + ",timeout,requests", Integer.toString(timeout)},
                    {"The " + t + " service is released every " + day + ".", "the " + t + " service is released every " + day,
                            T + " ships a new release each " + day + ".",
                            "On which day is the " + t + " service released?", t + ",release,day", day}};
            for (int f = 0; f < facts.length; f++) {
                String[] fact = facts[f];
                Instant at = learnt.plus(Duration.ofMinutes(7L * f));
                String id = t + "/" + f;
                writes.add(new Write(at, session, fact[0], t, "fact", null, "fact", id));
                // later in the month: the same words again, a light rewording, a paraphrase (each with some chance)
                if (r.nextDouble() < 0.6) writes.add(laterWrite(r, start, days, t, fact[0], "repeat", id));
                if (r.nextDouble() < 0.6) writes.add(laterWrite(r, start, days, t, fact[1], "rewording", id));
                if (r.nextDouble() < 0.5) writes.add(laterWrite(r, start, days, t, fact[2], "paraphrase", id));
                String expected = fact[5], stale = null;
                boolean updated = ti % 2 == 0 && (f == 3 || f == 4);
                if (updated) {
                    int newer = f == 3 ? pool + 10 * (1 + r.nextInt(5)) : timeout + 5 * (1 + r.nextInt(4));
                    String content = f == 3 ? "The " + t + " database pool allows max " + newer + " connections."
                            : T + " requests time out after " + newer + " seconds.";
                    Instant when = start.plus(Duration.ofDays(12 + r.nextInt(days - 14))).plus(Duration.ofMinutes(r.nextInt(600)));
                    writes.add(new Write(when, "agent-day" + Duration.between(start, when).toDays(), content, t, "fact", null, "update", id));
                    stale = expected;
                    expected = Integer.toString(newer);
                }
                probes.add(new Probe(fact[3], List.of(fact[4].split(",")), expected, stale, updated ? "updated fact" : "fact"));
            }
            // first morning: five dashboard details, unimportant, never looked at again until the questions
            for (int p = 0; p < PANELS.length; p++) {
                String metric = METRICS[(ti + 3 * p) % METRICS.length];
                String content = T + " dashboard note: the " + PANELS[p] + " panel shows " + metric + ".";
                writes.add(new Write(start.plus(Duration.ofMinutes(5 + 10L * ti + p)), "agent-day0", content, t, "fact", 0.3, "note",
                        t + "/note" + p));
                if (p < 2) {
                    probes.add(new Probe("What does the " + PANELS[p] + " panel of the " + t + " dashboard show?",
                            List.of(t, PANELS[p], "panel", "dashboard"), metric, null, "old note"));
                }
            }
        }
        for (int d = 0; d < days; d++) {
            String t = TOPICS[r.nextInt(topics)];
            writes.add(new Write(start.plus(Duration.ofDays(d)).plus(Duration.ofHours(18)), "agent-day" + d,
                    "Day " + (d + 1) + ": worked on " + TASKS[r.nextInt(TASKS.length)] + " in " + t + ".", "session_reflect",
                    "fact", 0.25, "day summary", "day/" + d));
        }
        writes.sort(Comparator.comparing(Write::at));
        return new Month(start, end, List.copyOf(writes), List.copyOf(probes));
    }

    private static Write laterWrite(Random r, Instant start, int days, String topic, String content, String kind, String fact) {
        Instant at = start.plus(Duration.ofDays(7 + r.nextInt(days - 8))).plus(Duration.ofMinutes(r.nextInt(900)));
        return new Write(at, "agent-day" + Duration.between(start, at).toDays(), content, topic, "fact", null, kind, fact);
    }
}
