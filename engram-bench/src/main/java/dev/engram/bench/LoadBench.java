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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.engram.store.postgres.PostgresLocation;

/**
 * {@code engram serve} under N concurrent HTTP clients: each client holds its own MCP session (the CLI's
 * {@link RemoteServer}, over one shared HTTP client) and, for a fixed time, calls recall (80%) or remember (20%)
 * back to back. Throughput, p50 / p99 per tool, errors (a tool error or a failed request) and the index lag the
 * server reports afterwards (the largest of the replicas'). With {@code --postgres} the preloaded store is copied into
 * a fresh schema (the CLI's export and import) and {@code --replicas} servers share it, clients spread over them;
 * several replica counts ({@code --replicas 1,2}) and {@code --with-embedded} measure each setup in turn in one run,
 * each from a fresh copy of the same preloaded memories. The store is preloaded in bulk before the servers start; they
 * run with the rate limit off (every client shares one token) and without an embedding model unless told otherwise.
 */
final class LoadBench {
    static final String TOKEN = "engram-bench-load-token";

    /**
     * {@code rate} 0: every client calls back to back (closed loop), which measures the most the server gives. Above
     * 0: the clients together offer {@code rate} calls a second on a fixed schedule (open loop, client i every
     * clients/rate seconds), which measures latency at a given load. In a closed loop latency is fixed by throughput
     * (Little's law: N clients / X calls a second), so "p99 under 50 ms at 50 clients" can only be judged paced.
     */
    record Settings(List<Integer> clients, Duration duration, int memories, double recallShare, long seed, Path workDir,
                    Path jar, List<String> javaOptions, String embedder, String postgres, List<Integer> replicas,
                    boolean withEmbedded, double rate, Duration warmup) {
        Settings {
            if (warmup.isNegative()) throw new IllegalArgumentException("--warmup must be >= 0 s");
            if (!(rate >= 0 && rate <= 100_000)) throw new IllegalArgumentException("--rate must be 0 (back to back) or up to 100000 calls/s, got " + rate);
            clients = List.copyOf(clients);
            replicas = List.copyOf(replicas);
            if (replicas.isEmpty() || replicas.stream().anyMatch(r -> r < 1 || r > 8)) {
                throw new IllegalArgumentException("--replicas must be 1..8 each, got " + replicas);
            }
            if (postgres == null && !replicas.equals(List.of(1))) {
                throw new IllegalArgumentException("--replicas " + replicas.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(",")) + " needs --postgres URL: replicas share a PostgreSQL store");
            }
            if (withEmbedded && postgres == null) {
                throw new IllegalArgumentException("--with-embedded puts the embedded store's rows beside PostgreSQL's: give"
                        + " --postgres URL too (without it every row is the embedded store's)");
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

        /** What is measured, in order: the embedded store, or it (with {@code --with-embedded}) and then each replica count on PostgreSQL. */
        List<Setup> setups() {
            if (postgres == null) return List.of(Setup.EMBEDDED);
            List<Setup> out = new ArrayList<>();
            if (withEmbedded) out.add(Setup.EMBEDDED);
            for (int r : replicas) out.add(new Setup(true, r));
            return out;
        }
    }

    /** One way of serving: the embedded store (one server) or {@code replicas} servers on one PostgreSQL schema. */
    record Setup(boolean postgres, int replicas) {
        static final Setup EMBEDDED = new Setup(false, 1);

        String label() {
            return postgres ? "PostgreSQL, " + replicas + (replicas == 1 ? " replica" : " replicas") : "embedded";
        }

        /**
         * {@code perServer} for each replica: the clients' calls are spread over the replicas, and each JVM compiles its
         * own hot paths (C2 took about 135 s of CPU under load, a core's worth for two minutes), so N replicas warmed for
         * as long as one would each be half-compiled when the row starts: measured so, a second replica cost 7.3 ms of
         * server CPU a call against 3.6 for one, and 4.0 after four minutes of warm-up.
         */
        Duration warmup(Duration perServer) {
            return perServer.multipliedBy(replicas);
        }
    }

    /** {@code serverCpu} and {@code clientCpu}: CPU time the server processes and this benchmark's JVM used during the row. */
    record Row(Setup setup, int clients, double seconds, long recalls, long remembers, long errors, Latencies recall, Latencies remember,
               long indexLag, Duration serverCpu, Duration clientCpu) {
        double perSecond(long n) {
            return n / seconds;
        }

        /** CPU milliseconds per call, or NaN when the platform does not report it. */
        double cpuPerCall(Duration cpu) {
            long calls = recalls + remembers;
            return cpu == null || calls == 0 ? Double.NaN : cpu.toNanos() / 1e6 / calls;
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
        try {
            Path preloaded = Files.createDirectories(dir.resolve("preloaded"));
            preload(preloaded, s);
            Path export = null;
            if (s.postgres() != null) {
                export = dir.resolve("preload.jsonl");
                cli(s, "--store", preloaded.toString(), "export", "--out", export.toString());
            }
            List<Row> rows = new ArrayList<>();
            List<Setup> setups = s.setups();
            for (int i = 0; i < setups.size(); i++) rows.addAll(measureSetup(setups.get(i), dir.resolve("setup-" + i), preloaded, export, s));
            return rows;
        } finally {
            TempDirs.deleteQuietly(dir, progress);
        }
    }

    /** Every row of one setup, from a fresh copy of the preloaded memories (a setup's remembers would carry over). */
    private List<Row> measureSetup(Setup setup, Path dir, Path preloaded, Path export, Settings s) throws Exception {
        String schema = "engram_load_" + Long.toHexString(System.nanoTime());
        String pg = setup.postgres() ? s.postgres() + (s.postgres().contains("?") ? "&" : "?") + "schema=" + schema : null;
        List<Process> servers = new ArrayList<>();
        try {
            if (pg == null) {
                TempDirs.copy(preloaded, dir);
            } else {
                Files.createDirectories(dir);
                cli(s, "--store", pg, "import", export.toString());
                progress.println("load: copied to PostgreSQL (" + s.memories() + " memories)");
            }
            List<String> urls = new ArrayList<>();
            for (int r = 0; r < setup.replicas(); r++) {
                // a PostgreSQL replica keeps its own search index under its own store directory
                Path home = pg == null ? dir : Files.createDirectories(dir.resolve("replica-" + r));
                Process server = ServeProcess.start(s.jar(), pg == null ? dir.toString() : pg, home, s.javaOptions(), s.embedder(), TOKEN);
                servers.add(server);
                urls.add(ServeProcess.awaitUrl(server, serverErr, "load-server-stderr"));
            }
            progress.println("load: " + setup.label() + ", serving at " + urls);
            HttpClient http = RemoteServer.httpClient();
            List<RemoteServer> warm = connect(urls, s.clients().get(0), http);
            try {
                if (!s.warmup().isZero()) {
                    // the server's JIT compiles its hot paths in the first minutes: not what a long-running server costs.
                    // At the row's pace: after 120 s back to back, C2 still took 0.8 of a core through a row paced at 150
                    // calls/s (8.2-9.5 ms of server CPU a call, against 4.6-5.5 after 150-240 s at that pace)
                    Duration warmup = setup.warmup(s.warmup());
                    progress.printf(Locale.ROOT, "load: warming up for %d s (not measured)%n", warmup.toSeconds());
                    measure(setup, urls, servers, http, warm, s, warmup, s.rate(), 1);
                }
                List<Row> rows = new ArrayList<>();
                for (int i = 0; i < s.clients().size(); i++) {
                    // the first row goes on with the warm-up's sessions, as long-lived clients would: fresh ones would
                    // start it with every client's handshake and first calls at once, a burst no steady load has
                    List<RemoteServer> sessions = i == 0 ? warm : connect(urls, s.clients().get(i), http);
                    try {
                        rows.add(measure(setup, urls, servers, http, sessions, s, s.duration(), s.rate(), 0));
                    } finally {
                        if (i > 0) sessions.forEach(RemoteServer::close);
                    }
                }
                return rows;
            } finally {
                warm.forEach(RemoteServer::close);
            }
        } finally {
            for (Process server : servers) server.destroy(); // SIGTERM: the graceful stop
            for (Process server : servers) if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly();
            if (pg != null) dropSchema(s.postgres(), schema);
        }
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

    /** {@code clients} MCP sessions, spread over the replicas in turn. */
    private static List<RemoteServer> connect(List<String> urls, int clients, HttpClient http) {
        JsonText json = JsonText.standard();
        List<RemoteServer> sessions = new ArrayList<>();
        for (int i = 0; i < clients; i++) sessions.add(RemoteServer.connect(urls.get(i % urls.size()), TOKEN, json, http));
        return sessions;
    }

    /**
     * One row: each of {@code sessions} calls for {@code duration}. {@code phase} picks the generated texts (0 for a measured
     * row): a warm-up that wrote the same texts would turn the row's remembers into rewrites of identical memories.
     */
    private Row measure(Setup setup, List<String> urls, List<Process> servers, HttpClient http, List<RemoteServer> sessions, Settings s,
                        Duration duration, double rate, int phase) throws InterruptedException {
        int clients = sessions.size();
        progress.printf(Locale.ROOT, "load: %d clients for %d s%n", clients, duration.toSeconds());
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<List<Long>> recallNanos = new ArrayList<>();
        List<List<Long>> rememberNanos = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        // each client's generators build a vocabulary of thousands of identifiers: built on the row's clock, they cost
        // its first second a burst of CPU and the bench a long young pause copying them (106 ms seen), counted as latency
        List<ClientTexts> texts = new ArrayList<>();
        for (int i = 0; i < clients; i++) texts.add(ClientTexts.of(clientSeed(s.seed(), clients, i, phase)));
        System.gc(); // what the set-up left is collected and promoted before the clock starts, not during the row
        Duration serverCpu0 = cpu(servers);
        Duration clientCpu0 = cpu(ProcessHandle.current());
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        // paced: client i calls every `interval` ns, the clients' first calls spread over one interval
        long interval = rate > 0 ? Math.round(clients * 1e9 / rate) : 0;
        for (int i = 0; i < clients; i++) {
            List<Long> recalls = new ArrayList<>();
            List<Long> remembers = new ArrayList<>();
            recallNanos.add(recalls);
            rememberNanos.add(remembers);
            RemoteServer session = sessions.get(i);
            ClientTexts own = texts.get(i);
            long first = start + (interval == 0 ? 0 : interval * i / clients);
            Thread t = new Thread(() -> work(session, own, s.recallShare(), first, interval, deadline, recalls, remembers, errors,
                    firstError),
                    "load-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) t.join();
        // the count alone cannot tell an overloaded server's failed request from a tool that answered isError
        if (firstError.get() != null) progress.println("load: first error: " + firstError.get());
        double seconds = (System.nanoTime() - start) / 1e9;
        Duration serverCpu = minus(cpu(servers), serverCpu0);
        Duration clientCpu = minus(cpu(ProcessHandle.current()), clientCpu0);
        long lag = 0;
        for (String url : urls) lag = Math.max(lag, indexLag(http, url)); // the replica furthest behind
        return new Row(setup, clients, seconds, count(recallNanos), count(rememberNanos), errors.get(), latencies(recallNanos),
                latencies(rememberNanos), lag, serverCpu, clientCpu);
    }

    /**
     * Client {@code i}'s seed in a row of {@code clients} ({@code phase} 1: the warm-up, 0: a measured row), mixed:
     * {@link Random}'s first draws from neighbouring seeds nearly agree (0.753-0.756 for ten of them), so from plain
     * consecutive seeds every client made the same first call (fifty remembers at once) with a text of the same template.
     */
    static long clientSeed(long seed, int clients, int i, int phase) {
        return new SplittableRandom(seed * 1_000_003L + clients * 7919L + i + phase * 0x5DEECE66DL).nextLong();
    }

    /** The CPU time these processes have used so far, or null when the platform does not tell. */
    private static Duration cpu(List<Process> processes) {
        Duration sum = Duration.ZERO;
        for (Process p : processes) {
            Duration one = cpu(p.toHandle());
            if (one == null) return null;
            sum = sum.plus(one);
        }
        return sum;
    }

    private static Duration cpu(ProcessHandle p) {
        return p.info().totalCpuDuration().orElse(null);
    }

    private static Duration minus(Duration after, Duration before) {
        return after == null || before == null ? null : after.minus(before);
    }

    /**
     * One client's loop: its own generators, so the whole run is the same text for the same seed. Paced
     * ({@code interval} > 0), each call is due at {@code first + k·interval}; a call that starts late (the previous
     * one ran long) is timed from when it was due, so the server's queueing counts in its latency instead of thinning
     * the samples (coordinated omission).
     */
    private static void work(RemoteServer session, ClientTexts texts, double recallShare, long first, long interval, long deadline,
                             List<Long> recalls, List<Long> remembers, AtomicLong errors,
                             AtomicReference<String> firstError) {
        MemoryGenerator memories = texts.memories(), queries = texts.queries();
        Random choice = texts.choice();
        long due = first;
        while (true) {
            if (interval > 0) {
                long wait = due - System.nanoTime();
                if (due >= deadline) break;
                if (wait > 0) java.util.concurrent.locks.LockSupport.parkNanos(wait);
            } else if (System.nanoTime() >= deadline) {
                break;
            }
            boolean recall = choice.nextDouble() < recallShare;
            Map<String, Object> args;
            if (recall) {
                args = Map.of("query", queries.query(), "zone", queries.zone());
            } else {
                SyntheticMemory m = memories.next();
                args = Map.of("content", m.content(), "tags", m.tags(), "zone", m.zone(), "type", m.type().wireName());
            }
            long t0 = interval > 0 ? due : System.nanoTime();
            try {
                RemoteServer.ToolAnswer a = session.call(recall ? "recall" : "remember", args);
                if (a.isError()) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, (recall ? "recall" : "remember") + " answered isError: " + a.text());
                }
            } catch (RuntimeException e) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, (recall ? "recall" : "remember") + " failed: " + e);
            }
            (recall ? recalls : remembers).add(System.nanoTime() - t0);
            due += interval;
        }
    }

    /** One client's streams, all from its seed: what it remembers, what it asks, and which of the two it does next. */
    record ClientTexts(MemoryGenerator memories, MemoryGenerator queries, Random choice) {
        static ClientTexts of(long seed) {
            return new ClientTexts(new MemoryGenerator(seed), new MemoryGenerator(seed ^ 0x9E3779B97F4A7C15L), new Random(seed));
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
        MarkdownTable t = new MarkdownTable("setup", "clients", "calls/s", "recalls/s", "recall p50 ms", "recall p99 ms",
                "remembers/s", "remember p50 ms", "remember p99 ms", "errors", "index lag", "server CPU ms/call",
                "client CPU ms/call");
        for (Row r : rows) {
            t.row(r.setup().label(), r.clients(), fmt(r.perSecond(r.recalls() + r.remembers())), fmt(r.perSecond(r.recalls())),
                    r.recall() == null ? "-" : r.recall().ms(50), r.recall() == null ? "-" : r.recall().ms(99),
                    fmt(r.perSecond(r.remembers())), r.remember() == null ? "-" : r.remember().ms(50),
                    r.remember() == null ? "-" : r.remember().ms(99), r.errors(), r.indexLag(), cpuCell(r.cpuPerCall(r.serverCpu())),
                    cpuCell(r.cpuPerCall(r.clientCpu())));
        }
        String where = s.postgres() == null ? "embedded store"
                : "each setup from a fresh copy; PostgreSQL replicas share one schema, each with its own search index";
        String pace = s.rate() > 0
                ? String.format(Locale.ROOT, "paced: %.0f calls/s offered in all, latency from when each call was due", s.rate())
                : "back to back (closed loop)";
        return String.format(Locale.ROOT, "engram serve (%s; %d memories preloaded, embedder %s), %d s per row after %d s of"
                + " warm-up per server (N replicas: N times as long), %.0f%% recall / %.0f%% remember, one MCP session per client, %s:%n%n", where, s.memories(),
                s.embedder(), s.duration().toSeconds(), s.warmup().toSeconds(), s.recallShare() * 100,
                (1 - s.recallShare()) * 100, pace) + t.render();
    }

    private static String cpuCell(double ms) {
        return Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.2f", ms);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
