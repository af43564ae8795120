package dev.engram.bench;

import dev.engram.cli.RemoteServer;
import dev.engram.mcp.json.JsonText;
import dev.engram.store.postgres.PostgresLocation;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code engram-bench faults}: {@code kill -9} of an {@code engram serve} process in the middle of a stream of
 * writes from several HTTP clients, then a restart on the same store, trial after trial: every write the server
 * acknowledged before the kill must be in the store afterwards (read back through {@code /export}). Writes that
 * were in flight when the process died are counted apart: the client got no answer, so either outcome is allowed.
 * Runs on the embedded store and, with {@code --postgres}, on a fresh PostgreSQL schema (dropped afterwards), where
 * the restarted replica must also find them through its own search index.
 */
final class FaultsBench {
    static final String TOKEN = "engram-bench-faults-token";
    /** A small, quick-starting server: the trials restart it often. */
    private static final List<String> FAULTS_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    record Settings(int trials, int writers, int minAcks, int maxAcks, long seed, Path workDir, Path jar, String postgres,
                    boolean embedded) {
        Settings {
            if (trials < 1 || trials > 1000) throw new IllegalArgumentException("--trials must be 1..1000, got " + trials);
            if (writers < 1 || writers > 64) throw new IllegalArgumentException("--writers must be 1..64, got " + writers);
            if (minAcks < 1 || maxAcks < minAcks) {
                throw new IllegalArgumentException("--kill-after must be MIN..MAX with 1 <= MIN <= MAX, got " + minAcks + ".." + maxAcks);
            }
            if (postgres != null && (!PostgresLocation.isUrl(postgres) || postgres.contains("schema="))) {
                throw new IllegalArgumentException("--postgres must be a postgresql://user@host:5432/db URL without a schema"
                        + " (the benchmark makes its own and drops it), got '" + postgres + "'");
            }
            if (!embedded && postgres == null) throw new IllegalArgumentException("nothing to run: --no-embedded needs --postgres URL");
        }
    }

    /** One store's trials: acknowledged writes, how many were found after the restarts, in-flight ones, restart times. */
    record Row(String store, int trials, long acknowledged, long present, long inFlight, long inFlightPresent,
               Latencies restart, long failedTrials) {
    }

    private final PrintStream progress;
    private final PrintStream serverErr;

    FaultsBench(PrintStream progress, PrintStream serverErr) {
        this.progress = progress;
        this.serverErr = serverErr;
    }

    List<Row> run(Settings s) throws Exception {
        List<Row> rows = new ArrayList<>();
        Path dir = Files.createTempDirectory(Files.createDirectories(s.workDir()), "faults-");
        try {
            if (s.embedded()) rows.add(trials("embedded", dir.resolve("store").toString(), dir.resolve("home"), s));
            if (s.postgres() != null) {
                String schema = "engram_faults_" + Long.toHexString(System.nanoTime());
                String url = s.postgres() + (s.postgres().contains("?") ? "&" : "?") + "schema=" + schema;
                try {
                    rows.add(trials("postgresql", url, dir.resolve("replica"), s));
                } finally {
                    dropSchema(s.postgres(), schema);
                }
            }
        } finally {
            TempDirs.deleteQuietly(dir, progress);
        }
        return rows;
    }

    private Row trials(String kind, String store, Path home, Settings s) throws Exception {
        Files.createDirectories(home);
        Random random = new Random(s.seed());
        HttpClient http = RemoteServer.httpClient();
        JsonText json = JsonText.standard();
        long acknowledged = 0;
        long present = 0;
        long inFlight = 0;
        long inFlightPresent = 0;
        long failed = 0;
        List<Long> restarts = new ArrayList<>();
        Set<String> allAcked = new HashSet<>();
        for (int trial = 0; trial < s.trials(); trial++) {
            long t0 = System.nanoTime();
            Process server = ServeProcess.start(s.jar(), store, home, FAULTS_JVM, "none", TOKEN);
            String url = ServeProcess.awaitUrl(server, serverErr, "faults-server-stderr");
            restarts.add(System.nanoTime() - t0);
            if (trial > 0) {
                // the previous trial's writes, read after the restart: this is the check
                Set<String> stored = storedWords(http, url);
                List<String> lost = new ArrayList<>();
                for (String w : lastAcked) if (!stored.contains(w)) lost.add(w);
                present += lastAcked.size() - lost.size();
                for (String w : lastInFlight) if (stored.contains(w)) inFlightPresent++;
                if (!lost.isEmpty()) {
                    failed++;
                    progress.printf(Locale.ROOT, "faults: %s trial %d LOST %d of %d acknowledged writes: %s%n", kind, trial - 1,
                            lost.size(), lastAcked.size(), lost.subList(0, Math.min(5, lost.size())));
                }
                if (!searchFinds(url, json, http, lastAcked)) {
                    failed++;
                    progress.printf(Locale.ROOT, "faults: %s trial %d: the restarted server's search misses the last write%n", kind, trial - 1);
                }
            }
            int killAfter = s.minAcks() + random.nextInt(s.maxAcks() - s.minAcks() + 1);
            Trial t = writeAndKill(server, url, json, http, s.writers(), killAfter, trial);
            acknowledged += t.acked().size();
            inFlight += t.inFlight().size();
            allAcked.addAll(t.acked());
            lastAcked = t.acked();
            lastInFlight = t.inFlight();
            progress.printf(Locale.ROOT, "faults: %s trial %d: killed after %d acknowledged writes (%d in flight)%n", kind, trial,
                    t.acked().size(), t.inFlight().size());
        }
        // the last trial's writes, and every trial's at once: nothing acknowledged earlier went missing later either
        Process server = ServeProcess.start(s.jar(), store, home, FAULTS_JVM, "none", TOKEN);
        try {
            String url = ServeProcess.awaitUrl(server, serverErr, "faults-server-stderr");
            Set<String> stored = storedWords(http, url);
            long lastPresent = lastAcked.stream().filter(stored::contains).count();
            present += lastPresent;
            if (lastPresent < lastAcked.size()) failed++;
            inFlightPresent += lastInFlight.stream().filter(stored::contains).count();
            long everPresent = allAcked.stream().filter(stored::contains).count();
            if (everPresent < allAcked.size()) {
                failed++;
                progress.printf(Locale.ROOT, "faults: %s: %d of %d acknowledged writes missing at the end%n", kind,
                        allAcked.size() - everPresent, allAcked.size());
            }
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly();
        }
        return new Row(kind, s.trials(), acknowledged, present, inFlight, inFlightPresent, new Latencies(restarts.stream().mapToLong(Long::longValue).toArray()), failed);
    }

    private List<String> lastAcked = List.of();
    private List<String> lastInFlight = List.of();

    private record Trial(List<String> acked, List<String> inFlight) {
    }

    /** Writers remember unique words until {@code killAfter} are acknowledged; then SIGKILL, with writes still in flight. */
    private Trial writeAndKill(Process server, String url, JsonText json, HttpClient http, int writers, int killAfter, int trial)
            throws Exception {
        List<String> acked = Collections.synchronizedList(new ArrayList<>());
        List<String> inFlight = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean killed = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            RemoteServer session = RemoteServer.connect(url, TOKEN, json, http);
            int writer = w;
            Thread t = new Thread(() -> {
                Random words = new Random(System.nanoTime() + writer);
                for (int i = 0; !killed.get(); i++) {
                    String word = word(words);
                    try {
                        RemoteServer.ToolAnswer a = session.call("remember", Map.of("content",
                                "Fault trial " + trial + " writer " + writer + " write " + i + " keeps " + word));
                        if (killed.get()) {
                            inFlight.add(word); // answered as the kill landed: counted neither way
                            return;
                        }
                        if (a.isError()) throw new IllegalStateException("remember refused: " + a.text());
                        acked.add(word);
                        if (acked.size() >= killAfter && killed.compareAndSet(false, true)) server.destroyForcibly(); // SIGKILL
                    } catch (RuntimeException e) {
                        if (!killed.get()) throw e;
                        inFlight.add(word); // the call the kill cut off
                        return;
                    }
                }
            }, "faults-writer-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) t.join();
        if (!server.waitFor(10, TimeUnit.SECONDS)) throw new IllegalStateException("the server survived SIGKILL");
        return new Trial(List.copyOf(acked), List.copyOf(inFlight));
    }

    /** The last word of every stored memory's content, read through {@code GET /export}. */
    private static Set<String> storedWords(HttpClient http, String mcpUrl) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(mcpUrl.replaceFirst("/mcp$", "/export")))
                .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("GET /export answered " + r.statusCode() + ": " + r.body());
        Set<String> words = new HashSet<>();
        Matcher m = Pattern.compile("keeps ([a-z]+)\"").matcher(r.body());
        while (m.find()) words.add(m.group(1));
        return words;
    }

    /** Whether the restarted server's search (its own index, caught up from the store) finds the trial's last write. */
    private static boolean searchFinds(String url, JsonText json, HttpClient http, List<String> acked) {
        if (acked.isEmpty()) return true;
        String word = acked.get(acked.size() - 1);
        try (RemoteServer session = RemoteServer.connect(url, TOKEN, json, http)) {
            return session.call("recall", Map.of("query", word)).text().contains(word);
        }
    }

    private static String word(Random random) {
        String letters = "bcdfghjklmnpqrstvwxz";
        StringBuilder b = new StringBuilder("zf");
        for (int i = 0; i < 12; i++) b.append(letters.charAt(random.nextInt(letters.length())));
        return b.toString();
    }

    private void dropSchema(String url, String schema) {
        PostgresLocation at = PostgresLocation.parse(url);
        try (var c = java.sql.DriverManager.getConnection(at.jdbcUrl(), at.user(), at.password());
             var st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE"); // a name this class made: [a-z0-9_]
        } catch (java.sql.SQLException e) {
            progress.println("faults: could not drop schema " + schema + ": " + e.getMessage());
        }
    }

    static String table(List<Row> rows, Settings s) {
        MarkdownTable t = new MarkdownTable("store", "trials", "acknowledged", "present after restart", "present / acknowledged",
                "in flight (present)", "restart to listening p50 ms", "failed trials");
        for (Row r : rows) {
            t.row(r.store(), r.trials(), r.acknowledged(), r.present(),
                    String.format(Locale.ROOT, "%.3f", r.acknowledged() == 0 ? 1.0 : (double) r.present() / r.acknowledged()),
                    r.inFlight() + " (" + r.inFlightPresent() + ")", String.format(Locale.ROOT, "%.0f", r.restart().percentileNanos(50) / 1e6),
                    r.failedTrials());
        }
        return t.render() + String.format(Locale.ROOT,
                "%nSIGKILL after %d..%d acknowledged remembers from %d HTTP writers per trial; seed %d.%n",
                s.minAcks(), s.maxAcks(), s.writers(), s.seed());
    }
}
