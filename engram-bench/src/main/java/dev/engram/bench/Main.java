package dev.engram.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Benchmarks for Engram. Tables go to stdout (markdown), progress to stderr. The option fields of
 * the nested commands are not final because picocli injects them by reflection before {@code call()}.
 */
@Command(name = "engram-bench", mixinStandardHelpOptions = true,
        subcommands = {Main.Latency.class, Main.Peer.class, Main.ColdStart.class, Main.Locomo.class, Main.NearDuplicates.class,
                Main.ProxyScaling.class, Main.Load.class, Main.Faults.class, Main.Memento.class, Main.ToonPeerCommand.class,
                Main.EncryptedStart.class},
        description = "Benchmarks for Engram; see engram-bench/README.md.")
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /** Options every benchmark shares. */
    static final class Common {
        @Option(names = "--seed", defaultValue = "20261129", description = "Seed for generated memories and queries (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--work-dir", description = "Scratch folder for stores (default: a temp dir).")
        Path workDir;

        @Option(names = "--server-stderr", description = "Show the servers' stderr (otherwise discarded).")
        boolean serverStderr;

        Path workDir() throws Exception {
            Path dir = workDir != null ? workDir : Path.of(System.getProperty("java.io.tmpdir"), "engram-bench");
            return Files.createDirectories(dir);
        }

        PrintStream serverErr() {
            return serverStderr ? System.err : null;
        }
    }

    /** Where the two servers live. */
    static final class Servers {
        @Option(names = "--jar", defaultValue = "engram-cli/target/engram.jar", description = "Engram's runnable jar (default ${DEFAULT-VALUE}).")
        Path jar;

        @Option(names = "--peer-dir", defaultValue = "engram-bench/peer", description = "Folder with node_modules/@modelcontextprotocol/server-memory (default ${DEFAULT-VALUE}).")
        Path peerDir;

        @Option(names = "--node", defaultValue = "node", description = "Node.js executable (default ${DEFAULT-VALUE}).")
        String node;

        Path serverMemoryIndexJs() {
            Path js = peerDir.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js").toAbsolutePath();
            if (!Files.isRegularFile(js)) {
                throw new CommandLine.ParameterException(new CommandLine(new Main()),
                        js + " not found; run `npm ci` in " + peerDir);
            }
            return js;
        }

        Path engramJar() {
            Path j = jar.toAbsolutePath();
            if (!Files.isRegularFile(j)) {
                throw new CommandLine.ParameterException(new CommandLine(new Main()),
                        j + " not found; build it with mvn -B -q -pl engram-cli -am -DskipTests package");
            }
            return j;
        }
    }

    @Command(name = "latency", mixinStandardHelpOptions = true,
            description = "Engine-level remember/recall latency at several store sizes.")
    static final class Latency implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();

        @Option(names = "--sizes", split = ",", defaultValue = "1000,10000,100000", description = "Store sizes (default ${DEFAULT-VALUE}).")
        List<Integer> sizes;

        @Option(names = "--remembers", defaultValue = "500") int remembers;
        @Option(names = "--recalls", defaultValue = "500") int recalls;
        @Option(names = "--warmup", defaultValue = "100", description = "Untimed remember+recall pairs per size.") int warmup;
        @Option(names = "--embedder", defaultValue = "none", description = "none (lexical engine), minilm, e5-small-v2"
                + " or bge-small-en-v1.5 (every memory embedded before timing; remember embeds, recall runs the cascade).") String embedderName;
        @Option(names = "--embedding-cache", description = "A folder where the untimed backfill keeps the memories' vectors"
                + " between runs (timed remembers and queries are always embedded by the model).") Path embeddingCache;

        @Override
        public Integer call() throws Exception {
            String problem = modelFlagsProblem(embedderName, embeddingCache, "e5-small-v2, minilm or bge-small-en-v1.5");
            if (problem != null) {
                System.err.println("latency: " + problem);
                return 2;
            }
            var settings = new LatencyBench.Settings(sizes, remembers, recalls, warmup, common.seed, common.workDir());
            dev.engram.spi.Embedder embedder = null;
            EmbeddingCacheFile cache = null;
            if (!embedderName.equals("none")) {
                embedder = BenchEmbedder.named(embedderName).load();
                if (embeddingCache != null) cache = EmbeddingCacheFile.open(embeddingCache, embedder);
            }
            var rows = new LatencyBench(OpenedStore::embedded, System.err, embedder, cache).run(settings);
            System.out.println(LatencyBench.table(rows));
            System.out.println(machine());
            return 0;
        }
    }

    @Command(name = "peer", mixinStandardHelpOptions = true,
            description = "Engram vs @modelcontextprotocol/server-memory over MCP stdio, same client.")
    static final class Peer implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();
        @CommandLine.Mixin Servers servers = new Servers();

        @Option(names = "--sizes", split = ",", defaultValue = "1000,10000") List<Integer> sizes;
        @Option(names = "--corpus", defaultValue = "both", description = "current (1-3 sentence coding-agent memories),"
                + " short (one-sentence, one-observation entities) or both (default ${DEFAULT-VALUE}).") String corpus;
        @Option(names = "--writes", defaultValue = "200") int writes;
        @Option(names = "--searches", defaultValue = "200", description = "Timed searches per query shape.") int searches;
        // Engram's JVM starts cold (its preload is offline) while node has JIT-ed through the preload; a
        // server that has answered a few hundred calls is what an agent meets after its first minutes
        @Option(names = "--warmup", defaultValue = "300", description = "Untimed calls before each timed set.") int warmup;
        @Option(names = "--engram-java-opts", split = " ", defaultValue = "", description = "JVM options for Engram's server.")
        List<String> javaOpts;
        // call by call (--block 1), each timed call started while the other server was still cleaning up after
        // its own (node collecting the garbage of a 10k-entity scan): Engram's p50 then rose by 1.5-2 ms and
        // server-memory's did not move. Runs of 25 keep the servers' drift shared without that cross-talk.
        @Option(names = "--block", defaultValue = "25", description = "Calls each server makes in a row before the other's turn"
                + " (default ${DEFAULT-VALUE}; 1 = call by call).") int block;
        @Option(names = "--only", description = "Run one server only (engram or server-memory): for checking the harness.")
        String only;
        @Option(names = "--embedder", defaultValue = "none", description = "Engram's model: none (lexical; the server's own"
                + " ENGRAM_EMBEDDER is inherited, default), e5-small-v2 or minilm. With a model, the preload embeds every memory"
                + " and the server is timed only once its model has loaded.") String embedderName;
        @Option(names = "--embedding-cache", description = "With --embedder: a folder keeping the preload's vectors between runs"
                + " (as latency's).") Path embeddingCache;

        @Override
        public Integer call() throws Exception {
            if (only != null && !only.equals("engram") && !only.equals("server-memory")) {
                System.err.println("peer: --only must be engram or server-memory, got '" + only + "'");
                return 2;
            }
            String problem = modelFlagsProblem(embedderName, embeddingCache, "e5-small-v2 or minilm");
            if (problem != null) {
                System.err.println("peer: " + problem);
                return 2;
            }
            PeerTarget.Model model = null;
            if (!embedderName.equals("none")) {
                BenchEmbedder named = BenchEmbedder.named(embedderName);
                if (!named.bundled()) {
                    System.err.println("peer: --embedder " + named.flag() + " is not bundled in Engram's jar; the server loads"
                            + " e5-small-v2 or minilm");
                    return 2;
                }
                dev.engram.spi.Embedder loaded = named.load();
                model = new PeerTarget.Model(named.serverSetting(), loaded,
                        embeddingCache == null ? null : EmbeddingCacheFile.open(embeddingCache, loaded));
            }
            PeerBench.Settings settings;
            try {
                settings = new PeerBench.Settings(sizes, PeerBench.Corpus.parse(corpus), writes, searches, warmup, block,
                        common.seed, common.workDir());
            } catch (IllegalArgumentException e) {
                System.err.println("peer: " + e.getMessage());
                return 2;
            }
            List<PeerTarget> targets = new ArrayList<>();
            if (only == null || only.equals("server-memory")) {
                targets.add(new PeerTarget.ServerMemory(Path.of(servers.node), servers.serverMemoryIndexJs()));
            }
            if (only == null || only.equals("engram")) {
                targets.add(new PeerTarget.Engram(servers.engramJar(), blanksRemoved(javaOpts), common.seed, model));
            }
            var figures = new PeerBench(System.err, common.serverErr()).run(settings, targets);
            for (PeerBench.Corpus c : settings.corpora()) {
                for (int n : sizes) {
                    System.out.println(targets.size() == 2 ? PeerBench.table(figures, c, n) : PeerBench.single(figures, c, n));
                }
            }
            System.out.println(machine());
            return 0;
        }
    }

    @Command(name = "toonpeer", mixinStandardHelpOptions = true,
            description = "Engram's toon profile vs the real toon-memory (built with npm, outside this repository) over MCP stdio,"
                    + " same client: memory_remember and memory_recall {query, budget} latency and tokens per recall.")
    static final class ToonPeerCommand implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();

        @Option(names = "--toon", required = true, description = "A built toon-memory checkout (with bin/toon-memory.js; npm ci && npm run build).")
        Path toon;
        @Option(names = "--jar", defaultValue = "engram-cli/target/engram.jar", description = "Engram's runnable jar (default ${DEFAULT-VALUE}).")
        Path jar;
        @Option(names = "--node", defaultValue = "node", description = "Node.js executable (default ${DEFAULT-VALUE}).")
        String node;
        @Option(names = "--sizes", split = ",", defaultValue = "1000,5000") List<Integer> sizes;
        @Option(names = "--remembers", defaultValue = "100", description = "Timed memory_remember calls per size.") int remembers;
        @Option(names = "--recalls", defaultValue = "200", description = "Timed memory_recall calls per query shape.") int recalls;
        @Option(names = "--warmup", defaultValue = "30", description = "Untimed calls before each timed set.") int warmup;
        @Option(names = "--block", defaultValue = "25", description = "Calls each server makes in a row before the other's turn.") int block;
        @Option(names = "--budget", defaultValue = "normal", description = "memory_recall's budget: tiny, normal or deep (default ${DEFAULT-VALUE}).")
        String budget;
        @Option(names = "--budget-tokens", defaultValue = "0", description = "memory_recall's budget_tokens, sent to both"
                + " servers (default ${DEFAULT-VALUE}: not sent).") int budgetTokens;
        @Option(names = "--embedder", defaultValue = "none", description = "Engram's ENGRAM_EMBEDDER (default ${DEFAULT-VALUE}: lexical, as toon).")
        String embedder;
        @Option(names = "--engram-java-opts", split = " ", defaultValue = "", description = "JVM options for Engram's server.")
        List<String> javaOpts;
        @Option(names = "--shapes", split = ",", defaultValue = "phrase,keyword", description = "Query shapes: phrase (2-3 words),"
                + " keyword (1 word) or both (default ${DEFAULT-VALUE}).") List<String> shapes;
        // toon's recall rebuilds its whole graph, attaching each unlinked entry to its most similar one: quadratic in N
        @Option(names = "--set-seconds", defaultValue = "60", description = "A server stops taking calls in a set once they took"
                + " this long (at least one is timed; 0: no cap; default ${DEFAULT-VALUE}).") int setSeconds;

        @Override
        public Integer call() throws Exception {
            ToonPeer.Settings settings;
            Path serverJs;
            try {
                settings = new ToonPeer.Settings(sizes, remembers, recalls, warmup, block, budget, budgetTokens, ToonPeer.Settings.shapes(shapes),
                        setSeconds, common.seed, common.workDir());
                serverJs = ToonPeer.serverScript(toon);
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalArgumentException("--jar: " + jar.toAbsolutePath() + " not found; build it with"
                            + " mvn -B -q -pl engram-cli -am -DskipTests package");
                }
            } catch (IllegalArgumentException e) {
                System.err.println("toonpeer: " + e.getMessage());
                return 2;
            }
            List<PeerTarget> targets = List.of(new ToonPeer.Toon(node, serverJs, budget, budgetTokens),
                    new ToonPeer.EngramToon(jar.toAbsolutePath(), blanksRemoved(javaOpts), embedder, budget, budgetTokens));
            System.out.println("Engram: `java -jar engram.jar mcp --profile toon`, ENGRAM_EMBEDDER=" + embedder
                    + "; toon-memory: `node " + serverJs + " mcp`; each in its own empty project folder, same MCP Java SDK client."
                    + " Tokens: ceil(characters / 4) of the text answer.\n");
            // one size at a time, printed when done: toon's larger sizes take minutes and may fail on their own
            for (int n : sizes) {
                var figures = new PeerBench(System.err, common.serverErr()).run(settings.peer(List.of(n)), targets);
                System.out.println(ToonPeer.table(figures, n, budget + (budgetTokens == 0 ? "" : ", budget_tokens " + budgetTokens)));
                System.out.println(ToonPeer.verdict(figures, n));
                System.out.flush();
            }
            System.out.println();
            System.out.println(machine());
            return 0;
        }
    }

    /** Turn-level LoCoMo retrieval; the options are LocomoBench's own, passed through unchanged. */
    @Command(name = "locomo", mixinStandardHelpOptions = true, description = "LoCoMo retrieval: Recall@5/@10 and NDCG@10 per mode, dev and test splits"
            + " (--data, --audit, --conversations, --ingest plain|enriched|both, --via tools|mcp|engine, --jar, --embedder minilm|e5-small-v2|bge-small-en-v1.5, --out, --alpha, --stop-coverage, --stop-missing,"
            + " --stop-margin, --stop-margin-missing,"
            + " --boost-scale, --graph-weight, --graph-hops, --centrality-weight, --depth; dev sweeps: --stop-sweep, --centrality-sweep w1,w2,...).")
    static final class Locomo implements Callable<Integer> {
        @CommandLine.Unmatched List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            String[] flags = args.toArray(String[]::new);
            try {
                // only the flags' own checks turn into exit 2; a failure during the run keeps its stack trace
                dev.engram.bench.locomo.LocomoBench.checkFlags(flags);
            } catch (IllegalArgumentException e) {
                System.err.println("locomo: " + e.getMessage()); // the message names the flag or the setting
                return 2;
            }
            dev.engram.bench.locomo.LocomoBench.main(flags);
            return 0;
        }
    }

    @Command(name = "nearduplicates", mixinStandardHelpOptions = true, description = "Rescaled cosine (the engine's"
            + " scale) of labelled duplicate / same-topic pairs under a model, and the threshold that separates them best.")
    static final class NearDuplicates implements Callable<Integer> {
        @Option(names = "--embedder", defaultValue = "e5-small-v2", description = "minilm, e5-small-v2 (default) or bge-small-en-v1.5")
        String embedder;

        @Override
        public Integer call() throws Exception {
            dev.engram.bench.dedup.NearDuplicateThreshold.run(BenchEmbedder.named(embedder));
            return 0;
        }
    }

    @Command(name = "memento", mixinStandardHelpOptions = true,
            description = "The memento profile (issue 17): LoCoMo through its recall next to the native profile's, and a simulated"
                    + " month of an agent's memories with Memento's maintenance against none (memory count, tokens per recall, hit rate).")
    static final class Memento implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();

        @Option(names = "--part", split = ",", defaultValue = "locomo,month", description = "locomo, month or both (default ${DEFAULT-VALUE}).")
        List<String> parts;

        @Option(names = "--data", defaultValue = "../shared/data/locomo/locomo10.json", description = "LoCoMo's locomo10.json (default ${DEFAULT-VALUE}).")
        Path data;

        @Option(names = "--conversations", split = ",", description = "LoCoMo conversation indexes (default: all ten; dev is 0,1).")
        List<Integer> conversations;

        @Option(names = "--days", defaultValue = "30", description = "Length of the simulated month in days (default ${DEFAULT-VALUE}).")
        int days;

        @Option(names = "--threshold", split = ",", description = "The month's questions also asked with recall's"
                + " threshold (similarity 0..1, as an agent may pass it), one row pair per value; default: none.")
        List<Double> thresholds = List.of();

        @Option(names = "--out", description = "Also write the markdown to this file.")
        Path out;

        @Override
        public Integer call() throws Exception {
            if (thresholds.stream().anyMatch(t -> !(t > 0 && t <= 1))) {
                System.err.println("memento: --threshold values must be in (0, 1], got " + thresholds);
                return 2;
            }
            for (String p : parts) {
                if (!p.equals("locomo") && !p.equals("month")) {
                    System.err.println("memento: --part must be locomo, month or both (locomo,month), got '" + p + "'");
                    return 2;
                }
            }
            if (days < 15 || days > 120) {
                System.err.println("memento: --days must be 15..120 (the generator spreads a week of learning and later repeats), got " + days);
                return 2;
            }
            if (parts.contains("locomo") && !Files.isRegularFile(data)) {
                System.err.println("memento: --data " + data + " is not a file; pass LoCoMo's locomo10.json");
                return 2;
            }
            if (conversations != null && conversations.stream().anyMatch(c -> c < 0 || c > 9)) {
                System.err.println("memento: --conversations are indexes 0..9, got " + conversations);
                return 2;
            }
            BenchEmbedder model = BenchEmbedder.E5_SMALL_V2; // the product's default
            long t0 = System.nanoTime();
            dev.engram.spi.Embedder embedder = model.load();
            System.err.printf(Locale.ROOT, "%s ready in %.1f s%n", model.flag(), (System.nanoTime() - t0) / 1e9);
            StringBuilder md = new StringBuilder();
            if (parts.contains("locomo")) {
                md.append("### LoCoMo through the memento profile's recall\n\n").append(dev.engram.bench.locomo.MementoLocomo.run(data,
                        conversations == null ? java.util.Set.of() : java.util.Set.copyOf(conversations), embedder, model.flag(), System.err));
            }
            if (parts.contains("month")) {
                md.append("\n### A simulated month, with and without maintenance\n\n").append(dev.engram.bench.memento.SimulatedMonth.run(
                        common.seed, days, embedder, model.flag(), common.workDir(), System.err, thresholds));
            }
            md.append('\n').append(machine()).append('\n');
            System.out.print(md);
            if (out != null) Files.writeString(out, md.toString());
            return 0;
        }
    }

    @Command(name = "proxy-scaling", mixinStandardHelpOptions = true,
            description = "Time of the proxy's CLEAN -> COMPRESS per result size (plain, log, markdown, JSON, one line): ms and ms/MiB.")
    static final class ProxyScaling implements Callable<Integer> {
        @Option(names = "--shapes", split = ",", defaultValue = "plain,log,markdown,json,oneline",
                description = "Shapes of generated text (default ${DEFAULT-VALUE}).")
        List<String> shapes;

        @Option(names = "--sizes", split = ",", defaultValue = "0.25,0.5,1,2.5,5,7.5,10",
                description = "Result sizes in MiB of characters (default ${DEFAULT-VALUE}).")
        List<Double> sizes;

        @Option(names = "--repeats", defaultValue = "3", description = "Timed runs per size; the median is shown (default ${DEFAULT-VALUE}).")
        int repeats;

        @Option(names = "--seed", defaultValue = "20261129") long seed;

        @Override
        public Integer call() {
            List<dev.engram.bench.proxy.ProxyScalingBench.Shape> parsed = new ArrayList<>();
            for (String s : shapes) {
                try {
                    parsed.add(dev.engram.bench.proxy.ProxyScalingBench.Shape.valueOf(s.strip().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    System.err.println("proxy-scaling: unknown shape '" + s + "' (plain, log, markdown, json, oneline or tagsoup)");
                    return 2;
                }
            }
            if (repeats < 1 || sizes.stream().anyMatch(m -> !(m > 0 && m <= 1024))) {
                System.err.println("proxy-scaling: --repeats must be at least 1 and --sizes each over 0 and at most 1024 MiB");
                return 2;
            }
            var rows = new dev.engram.bench.proxy.ProxyScalingBench(System.err)
                    .run(new dev.engram.bench.proxy.ProxyScalingBench.Settings(parsed, sizes, repeats, seed));
            System.out.println(dev.engram.bench.proxy.ProxyScalingBench.table(rows));
            System.out.println(machine());
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "engram serve under N concurrent HTTP clients (80%% recall, 20%% remember) for a fixed time:"
                    + " throughput, p50 / p99, errors, index lag.")
    static final class Load implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();
        @CommandLine.Mixin Servers servers = new Servers();

        @Option(names = "--clients", split = ",", defaultValue = "10,50,200", description = "Concurrent clients per row (default ${DEFAULT-VALUE}).")
        List<Integer> clients;
        @Option(names = "--duration", defaultValue = "30", description = "Seconds per row (default ${DEFAULT-VALUE}).") int seconds;
        @Option(names = "--memories", defaultValue = "10000", description = "Memories preloaded (default ${DEFAULT-VALUE}).") int memories;
        @Option(names = "--recall-share", defaultValue = "0.8", description = "Share of calls that recall (default ${DEFAULT-VALUE}).")
        double recallShare;
        @Option(names = "--embedder", defaultValue = "none", description = "The server's ENGRAM_EMBEDDER (default ${DEFAULT-VALUE}).")
        String embedder;
        @Option(names = "--engram-java-opts", split = " ", defaultValue = "", description = "JVM options for the server.")
        List<String> javaOpts;
        @Option(names = "--postgres", paramLabel = "URL", description = "Serve from a fresh schema of this PostgreSQL database"
                + " (postgresql://user@host:5432/db, no schema), dropped afterwards.")
        String postgres;
        @Option(names = "--replicas", split = ",", defaultValue = "1", description = "Servers on the PostgreSQL store; several"
                + " counts (1,2) are measured in turn, each from a fresh copy (default ${DEFAULT-VALUE}).")
        List<Integer> replicas;
        @Option(names = "--with-embedded", description = "With --postgres: measure the embedded store first, in the same run.")
        boolean withEmbedded;
        @Option(names = "--rate", defaultValue = "0", description = "Calls a second the clients offer together, each on a fixed"
                + " schedule (open loop); 0: back to back (default ${DEFAULT-VALUE}).")
        double rate;
        // 120 s: under this load on 2 cores the server's C2 compiler still compiled 600-700 methods every 30 s until
        // about 170 s after start, and 50-100 by 240 s (-XX:+LogCompilation, docs/benchmarks.md); a served process runs
        // for hours, so a row measured in its first minute measured the JIT
        @Option(names = "--warmup", defaultValue = "120", description = "Seconds of unmeasured calls before the first row, so the"
                + " server's JIT has compiled its hot paths (default ${DEFAULT-VALUE}); N replicas, which share the calls, N times as long.")
        int warmup;

        @Override
        public Integer call() throws Exception {
            LoadBench.Settings settings;
            try {
                settings = new LoadBench.Settings(clients, java.time.Duration.ofSeconds(seconds), memories, recallShare,
                        common.seed, common.workDir(), servers.engramJar(), blanksRemoved(javaOpts), embedder, postgres, replicas, withEmbedded, rate,
                        java.time.Duration.ofSeconds(warmup));
            } catch (IllegalArgumentException e) {
                System.err.println("load: " + e.getMessage());
                return 2;
            }
            var rows = new LoadBench(System.err, common.serverErr()).run(settings);
            System.out.println(LoadBench.table(rows, settings));
            System.out.println(machine());
            return 0;
        }
    }

    @Command(name = "faults", mixinStandardHelpOptions = true,
            description = "kill -9 of engram serve during a stream of HTTP writes, then a restart: acknowledged vs present.")
    static final class Faults implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();
        @CommandLine.Mixin Servers servers = new Servers();

        @Option(names = "--trials", defaultValue = "20", description = "Kills per store (default ${DEFAULT-VALUE}).") int trials;
        @Option(names = "--writers", defaultValue = "4", description = "Concurrent HTTP writers (default ${DEFAULT-VALUE}).") int writers;
        @Option(names = "--kill-after", defaultValue = "20..60", paramLabel = "MIN..MAX",
                description = "Acknowledged writes before the kill, drawn per trial (default ${DEFAULT-VALUE}).") String killAfter;
        @Option(names = "--postgres", paramLabel = "URL", description = "Also on a fresh schema of this PostgreSQL database"
                + " (postgresql://user@host:5432/db, no schema), dropped afterwards.") String postgres;
        @Option(names = "--no-embedded", description = "Only the PostgreSQL store.") boolean noEmbedded;

        @Override
        public Integer call() throws Exception {
            FaultsBench.Settings settings;
            try {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,6})\\.\\.(\\d{1,6})").matcher(killAfter.strip());
                if (!m.matches()) throw new IllegalArgumentException("--kill-after must be MIN..MAX, e.g. 20..60, got '" + killAfter + "'");
                settings = new FaultsBench.Settings(trials, writers, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        common.seed, common.workDir(), servers.engramJar(), postgres, !noEmbedded);
            } catch (IllegalArgumentException e) {
                System.err.println("faults: " + e.getMessage());
                return 2;
            }
            var rows = new FaultsBench(System.err, common.serverErr()).run(settings);
            System.out.println(FaultsBench.table(rows, settings));
            System.out.println(machine());
            return rows.stream().anyMatch(r -> r.failedTrials() > 0 || r.present() < r.acknowledged()) ? 1 : 0;
        }
    }

    @Command(name = "encrypted-start", mixinStandardHelpOptions = true,
            description = "Spawn -> initialize -> first recall, on a store encrypted at rest (memory_encrypt) vs the same store plain.")
    static final class EncryptedStart implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();
        @CommandLine.Mixin Servers servers = new Servers();

        @Option(names = "--memories", defaultValue = "10000", description = "Memories in each store (default ${DEFAULT-VALUE}).") int memories;
        @Option(names = "--runs", defaultValue = "5") int runs;
        @Option(names = "--warmup", defaultValue = "1") int warmup;

        @Override
        public Integer call() throws Exception {
            if (memories < 1 || runs < 1 || warmup < 0) {
                System.err.println("encrypted-start: --memories and --runs must be at least 1, --warmup at least 0");
                return 2;
            }
            Path work = Files.createTempDirectory(common.workDir(), "encrypted-start-");
            var bench = new EncryptedStartBench(System.err, common.serverErr());
            bench.prepare(work.resolve("plain"), work.resolve("encrypted"), memories, common.seed);
            String query = new MemoryGenerator(common.seed + 1).query();
            var results = bench.run(servers.engramJar(), work.resolve("plain"), work.resolve("encrypted"), query, runs, warmup);
            System.out.println(EncryptedStartBench.table(results, memories, runs, warmup));
            System.out.println(machine());
            return 0;
        }
    }

    @Command(name = "coldstart", mixinStandardHelpOptions = true,
            description = "Spawn -> initialize -> tools/list, for Engram's JVM flag sets and server-memory.")
    static final class ColdStart implements Callable<Integer> {
        @CommandLine.Mixin Common common = new Common();
        @CommandLine.Mixin Servers servers = new Servers();

        @Option(names = "--runs", defaultValue = "10") int runs;
        @Option(names = "--warmup", defaultValue = "1") int warmup;
        @Option(names = "--launcher", description = "Also time this launcher script as `LAUNCHER mcp --store DIR`"
                + " (e.g. ./engram); its first session, in the warm-up round, records its own AppCDS archive.")
        Path launcher;

        @Option(names = "--cds", description = "AppCDS archive to create and use (default: <work-dir>/engram.jsa, recreated each run).")
        Path cds;

        @Option(names = "--with-cds", paramLabel = "FLAGS", description = "Also time Engram with these JVM flags"
                + " (space-separated) and the run's AppCDS archive; repeatable.")
        List<String> withCds = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            Path work = Files.createTempDirectory(common.workDir(), "coldstart-");
            Path archive = cds != null ? cds.toAbsolutePath() : work.resolve("engram.jsa");
            Path jar = servers.engramJar();
            List<String> fast = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
            var bench = new ColdStartBench(System.err, common.serverErr());
            try {
                List<String> training = new ArrayList<>(fast);
                training.add("-XX:ArchiveClassesAtExit=" + archive);
                bench.trainArchive(engram("training", jar, training, Files.createDirectories(work.resolve("training"))), archive);
                List<String> fastCds = new ArrayList<>(fast);
                fastCds.add("-XX:SharedArchiveFile=" + archive);
                // C2 kept: the archive was recorded under C1, and a JVM uses it whatever its compilers
                List<String> serialCds = List.of("-XX:+UseSerialGC", "-XX:SharedArchiveFile=" + archive);
                List<ColdStartBench.Config> configs = new ArrayList<>(List.of(
                        config("Engram, java -jar", jar, List.of(), work),
                        config("Engram, -XX:TieredStopAtLevel=1 -XX:+UseSerialGC", jar, fast, work),
                        config("Engram, C1 + SerialGC + AppCDS", jar, fastCds, work),
                        config("Engram, SerialGC + AppCDS (C1 and C2)", jar, serialCds, work)));
                for (String flags : withCds) {
                    List<String> opts = new ArrayList<>(blanksRemoved(List.of(flags.split(" "))));
                    opts.add("-XX:SharedArchiveFile=" + archive);
                    configs.add(config("Engram, AppCDS + " + flags, jar, opts, work));
                }
                if (launcher != null) {
                    Path dir = Files.createDirectories(work.resolve("store-launcher"));
                    // `mcp` first: the launcher only records its archive when the command is its first argument
                    configs.add(new ColdStartBench.Config("Engram, launcher " + launcher + " mcp",
                            new McpSession.ServerCommand("launcher", List.of(launcher.toAbsolutePath().toString(),
                                    "mcp", "--store", dir.toString()), java.util.Map.of()), dir));
                }
                configs.add(new ColdStartBench.Config("server-memory (node)", new PeerTarget.ServerMemory(
                        Path.of(servers.node), servers.serverMemoryIndexJs()).command(work), work));
                var results = bench.run(configs, runs, warmup);
                System.out.println(ColdStartBench.table(results, runs, warmup));
                System.out.println(machine());
                return 0;
            } finally {
                TempDirs.deleteQuietly(work, System.err);
            }
        }

        private static ColdStartBench.Config config(String label, Path jar, List<String> opts, Path work) throws Exception {
            Path dir = Files.createDirectories(work.resolve("store-" + Integer.toHexString(label.hashCode())));
            return new ColdStartBench.Config(label, engram(label, jar, opts, dir), dir);
        }

        private static McpSession.ServerCommand engram(String label, Path jar, List<String> opts, Path dir) {
            return new PeerTarget.Engram(jar, opts, 0).command(dir);
        }
    }

    /**
     * What is wrong with a command's {@code --embedder} and {@code --embedding-cache}, or null: an unknown model, a
     * vector cache without a model, or a cache that is a file. {@code models} names what {@code --embedder} may be.
     */
    static String modelFlagsProblem(String embedderName, Path cache, String models) {
        if (cache != null && embedderName.equals("none")) {
            return "--embedding-cache keeps a model's vectors; give --embedder too (" + models + ")";
        }
        if (cache != null && Files.exists(cache) && !Files.isDirectory(cache)) {
            return "--embedding-cache must be a folder, got the file " + cache;
        }
        if (!embedderName.equals("none")) {
            try {
                BenchEmbedder.named(embedderName);
            } catch (IllegalArgumentException e) {
                return e.getMessage() + " (or none)";
            }
        }
        return null;
    }

    static List<String> blanksRemoved(List<String> opts) {
        return opts == null ? List.of() : opts.stream().filter(o -> !o.isBlank()).toList();
    }

    static String machine() {
        return String.format(Locale.ROOT, "Machine: %d cores, %s %s, Java %s, %s. Shared and noisy; single run.",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"), java.time.Instant.now().toString().substring(0, 16) + "Z");
    }
}
