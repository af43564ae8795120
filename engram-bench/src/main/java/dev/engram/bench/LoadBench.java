package dev.engram.bench;

import dev.engram.cli.RemoteServer;
import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.engram.store.postgres.PostgresLocation;

/**
 * {@code engram serve} under N concurrent HTTP clients: each client holds its own MCP session (the CLI's
 * {@link RemoteServer}, over one shared HTTP client) and, for a fixed time, calls recall (80%) or remember (20%)
 * back to back. Throughput, p50 / p99 per tool, errors (a tool error or a failed request) and the index lag the
 * server reports afterwards (the largest of the replicas'). With {@code --postgres} the preloaded store is copied into
 * a fresh schema (the CLI's export and import) and {@code --replicas} servers share it, clients spread over them. The store is preloaded in bulk before the server starts; the server runs with its
 * rate limit off (every client shares one token) and without an embedding model unless told otherwise.
 */
final class LoadBench {
    static final String TOKEN = "engram-bench-load-token";

    record Settings(List<Integer> clients, Duration duration, int memories, double recallShare, long seed, Path workDir,
                    Path jar, List<String> javaOptions, String embedder, String postgres, int replicas) {
        Settings {
            clients = List.copyOf(clients);
            if (replicas < 1 || replicas > 8) throw new IllegalArgumentException("--replicas must be 1..8, got " + replicas);
            if (replicas > 1 && postgres == null) {
                throw new IllegalArgumentException("--replicas " + replicas + " needs --postgres URL: replicas share a PostgreSQL store");
            }
            if (postgres != null && (!PostgresLocation.isUrl(postgres) || postgres.contains("schema="))) {
                throw new IllegalArgumentException("--postgres must be a postgresql://user@host:5432/db URL without a schema"
                        + " (the benchmark makes its own and drops it), got '" + postgres + "'");
            }
            javaOptions = List.copyOf(javaOptions);
            if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1 || c > 2000)) {
                throw new IllegalArgumentException("--clients must be 1..2000 each, got " + clients);
            }
            if (duration.compareTo(Duration.ofSeconds(1)) < 0) throw new IllegalArgumentException("--duration must be at least 1 s");
            if (memories < 0) throw new IllegalArgumentException("--memories must be >= 0");
            if (!(recallShare >= 0 && recallShare <= 1)) throw new IllegalArgumentException("--recall-share must be 0..1");
        }
    }

    record Row(int clients, double seconds, long recalls, long remembers, long errors, Latencies recall, Latencies remember,
               long indexLag) {
        double perSecond(long n) {
            return n / seconds;
        }
    }

    private final PrintStream progress;
    private final PrintStream serverErr;

    LoadBench(PrintStream progress, PrintStream serverErr) {
        this.progress = progress;
        this.serverErr = serverErr;
    }

    List<Row> run(Settings s) throws Exception {
        Path dir = Files.createTempDirectory(s.workDir(), "load-");
        String schema = "engram_load_" + Long.toHexString(System.nanoTime());
        String pg = s.postgres() == null ? null : s.postgres() + (s.postgres().contains("?") ? "&" : "?") + "schema=" + schema;
        List<Process> servers = new ArrayList<>();
        try {
            preload(dir, s);
            if (pg != null) copyToPostgres(dir, pg, s);
            List<String> urls = new ArrayList<>();
            for (int r = 0; r < s.replicas(); r++) {
                // a PostgreSQL replica keeps its own search index under its own store directory
                Path home = pg == null ? dir : Files.createDirectories(dir.resolve("replica-" + r));
                Process server = ServeProcess.start(s.jar(), pg == null ? dir.toString() : pg, home, s.javaOptions(), s.embedder(), TOKEN);
                servers.add(server);
                urls.add(ServeProcess.awaitUrl(server, serverErr, "load-server-stderr"));
            }
            progress.println("load: serving at " + urls);
            List<Row> rows = new ArrayList<>();
            for (int c : s.clients()) rows.add(measure(urls, c, s));
            return rows;
        } finally {
            for (Process server : servers) server.destroy(); // SIGTERM: the graceful stop
            for (Process server : servers) if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly();
            if (pg != null) dropSchema(s.postgres(), schema);
            TempDirs.deleteQuietly(dir, progress);
        }
    }

    /** The preloaded embedded store into a fresh PostgreSQL schema, through the CLI's own export and import. */
    private void copyToPostgres(Path dir, String pg, Settings s) throws Exception {
        Path file = dir.resolve("preload.jsonl");
        cli(s, "--store", dir.toString(), "export", "--out", file.toString());
        cli(s, "--store", pg, "import", file.toString());
        progress.println("load: copied to PostgreSQL (" + s.memories() + " memories)");
    }

    private void cli(Settings s, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", s.jar().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("ENGRAM_EMBEDDER", "none");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException("engram " + String.join(" ", args) + " failed:\n" + out);
    }

    private void dropSchema(String url, String schema) {
        PostgresLocation at = PostgresLocation.parse(url);
        try (var c = java.sql.DriverManager.getConnection(at.jdbcUrl(), at.user(), at.password());
             var st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE"); // a name this class made: [a-z0-9_]
        } catch (java.sql.SQLException e) {
            progress.println("load: could not drop schema " + schema + ": " + e.getMessage());
        }
    }

    private void preload(Path dir, Settings s) throws Exception {
        if (s.memories() == 0) return;
        MemoryGenerator generator = new MemoryGenerator(s.seed());
        try (OpenedStore opened = OpenedStore.embedded(dir, Clock.systemUTC())) {
            var r = new BulkLoader(s.seed()).load(opened.store(), opened.index(), generator::next, s.memories(), Instant.now());
            progress.printf(Locale.ROOT, "load: %d memories preloaded (%.0f/s)%n", r.count(), r.perSecond());
        }
    }

    /** One row: {@code clients} sessions spread over the replicas in turn. */
    private Row measure(List<String> urls, int clients, Settings s) throws Exception {
        HttpClient http = RemoteServer.httpClient();
        JsonText json = JsonText.standard();
        List<RemoteServer> sessions = new ArrayList<>();
        for (int i = 0; i < clients; i++) sessions.add(RemoteServer.connect(urls.get(i % urls.size()), TOKEN, json, http));
        progress.printf(Locale.ROOT, "load: %d clients for %d s%n", clients, s.duration().toSeconds());
        AtomicLong errors = new AtomicLong();
        List<List<Long>> recallNanos = new ArrayList<>();
        List<List<Long>> rememberNanos = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + s.duration().toNanos();
        for (int i = 0; i < clients; i++) {
            List<Long> recalls = new ArrayList<>();
            List<Long> remembers = new ArrayList<>();
            recallNanos.add(recalls);
            rememberNanos.add(remembers);
            RemoteServer session = sessions.get(i);
            long seed = s.seed() * 1_000_003L + clients * 7919L + i;
            Thread t = new Thread(() -> work(session, seed, s.recallShare(), deadline, recalls, remembers, errors), "load-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) t.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        sessions.forEach(RemoteServer::close);
        long lag = 0;
        for (String url : urls) lag = Math.max(lag, indexLag(http, url)); // the replica furthest behind
        return new Row(clients, seconds, count(recallNanos), count(rememberNanos), errors.get(), latencies(recallNanos),
                latencies(rememberNanos), lag);
    }

    /** One client's loop: its own generators, so the whole run is the same text for the same seed. */
    private static void work(RemoteServer session, long seed, double recallShare, long deadline, List<Long> recalls,
                             List<Long> remembers, AtomicLong errors) {
        MemoryGenerator memories = new MemoryGenerator(seed);
        MemoryGenerator queries = new MemoryGenerator(seed ^ 0x9E3779B97F4A7C15L);
        Random choice = new Random(seed);
        while (System.nanoTime() < deadline) {
            boolean recall = choice.nextDouble() < recallShare;
            Map<String, Object> args;
            if (recall) {
                args = Map.of("query", queries.query(), "zone", queries.zone());
            } else {
                SyntheticMemory m = memories.next();
                args = Map.of("content", m.content(), "tags", m.tags(), "zone", m.zone(), "type", m.type().wireName());
            }
            long t0 = System.nanoTime();
            try {
                RemoteServer.ToolAnswer a = session.call(recall ? "recall" : "remember", args);
                if (a.isError()) errors.incrementAndGet();
            } catch (RuntimeException e) {
                errors.incrementAndGet();
            }
            (recall ? recalls : remembers).add(System.nanoTime() - t0);
        }
    }

    private static long count(List<List<Long>> all) {
        return all.stream().mapToLong(List::size).sum();
    }

    private static Latencies latencies(List<List<Long>> all) {
        long[] nanos = all.stream().flatMap(List::stream).mapToLong(Long::longValue).toArray();
        return nanos.length == 0 ? null : new Latencies(nanos);
    }

    /** What the server's /health says its index has not applied yet; -1 when it does not say. */
    private static long indexLag(HttpClient http, String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url).resolve("/health"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = Pattern.compile("\"lag\"\\s*:\\s*(-?\\d+)").matcher(r.body());
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    static String table(List<Row> rows, Settings s) {
        MarkdownTable t = new MarkdownTable("clients", "calls/s", "recalls/s", "recall p50 ms", "recall p99 ms",
                "remembers/s", "remember p50 ms", "remember p99 ms", "errors", "index lag");
        for (Row r : rows) {
            t.row(r.clients(), fmt(r.perSecond(r.recalls() + r.remembers())), fmt(r.perSecond(r.recalls())),
                    r.recall() == null ? "-" : r.recall().ms(50), r.recall() == null ? "-" : r.recall().ms(99),
                    fmt(r.perSecond(r.remembers())), r.remember() == null ? "-" : r.remember().ms(50),
                    r.remember() == null ? "-" : r.remember().ms(99), r.errors(), r.indexLag());
        }
        String where = s.postgres() == null ? "embedded store" : s.replicas() + " replica(s) on one PostgreSQL store";
        return String.format(Locale.ROOT, "engram serve (%s, %d memories preloaded, embedder %s), %d s per row,"
                + " %.0f%% recall / %.0f%% remember, one MCP session per client:%n%n", where, s.memories(), s.embedder(),
                s.duration().toSeconds(), s.recallShare() * 100, (1 - s.recallShare()) * 100) + t.render();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
