package dev.engram.bench.locomo;

import dev.engram.bench.locomo.ConversationRun.Outcome;
import dev.engram.bench.locomo.LocomoEvaluation.Cell;
import dev.engram.bench.locomo.LocomoEvaluation.Latency;
import dev.engram.bench.locomo.LocomoEvaluation.Split;
import dev.engram.bench.BenchEmbedder;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import dev.engram.engine.RecallSettings;

/**
 * {@code engram-bench locomo}: turn-level LoCoMo retrieval (shared/reference/benchmarks.md §1.3), one fresh embedded
 * store per conversation, the question verbatim as the query. By default it measures what a user gets: turns
 * written as an MCP client writes them ({@code --ingest plain}) and questions asked through the native profile's
 * tool handlers ({@code --via tools}; {@code --via mcp} drives the built jar over stdio, {@code --via engine} the
 * Engine API with reference rankings, fusions and sweeps). Prints markdown tables to stdout and
 * one progress line per conversation to stderr. Fusion parameters are chosen on the dev split
 * (conversations 0 and 1) only; the test split (2–9) is reported with those choices.
 * <pre>
 *   LocomoBench [--data ../shared/data/locomo/locomo10.json] [--audit …/locomo-audit-errors.json]
 *               [--conversations 0,1] [--ingest plain|enriched|both] [--via tools|mcp|engine] [--jar engram-cli/target/engram.jar]
 *               [--embedder minilm|e5-small-v2|bge-small-en-v1.5]
 *               [--out results.md]
 *               [--stop-sweep] [--centrality-sweep 0.05,0.1,0.2]   (dev sweeps: see StopRuleSweep, EngineMode.all)
 * </pre>
 */
public final class LocomoBench {
    private static final double[] ALPHAS = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    /** Any fixed instant: every memory is "new" at the same time, so freshness cannot reorder turns. */
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private LocomoBench() {
    }

    public static void main(String[] args) throws IOException {
        Path data = Path.of(option(args, "--data", "../shared/data/locomo/locomo10.json"));
        Path audit = Path.of(option(args, "--audit", data.resolveSibling("locomo-audit-errors.json").toString()));
        Set<Integer> wanted = conversations(args);
        String out = option(args, "--out", null);
        List<LocomoConversation.Ingest> ingests = ingests(args);
        String via = via(args);
        long start = System.nanoTime();

        List<LocomoConversation> conversations = LocomoDataset.read(data);
        if (!wanted.isEmpty()) conversations = conversations.stream().filter(c -> wanted.contains(c.index())).toList();
        Map<String, List<String>> corrections = Files.exists(audit) ? LocomoDataset.auditCorrections(audit) : Map.of();

        // flags first: a typo should not cost a model load
        RecallSettings settings = settings(args);
        List<Double> centralityWeights = centralityWeights(args, settings);
        BenchEmbedder model = embedder(args);
        Path jar = Path.of(option(args, "--jar", "engram-cli/target/engram.jar")).toAbsolutePath();
        if (via.equals("mcp") && !Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--via mcp needs the built jar, but " + jar + " does not exist; build with "
                    + "mvn -B -q -pl engram-bench,engram-cli -am -DskipTests package, or pass --jar");
        }
        Embedder embedder = null;
        if (!via.equals("mcp")) { // over stdio the server loads its own model
            long loadStart = System.nanoTime();
            embedder = model.load();
            System.err.printf(Locale.ROOT, "%s ready in %.1f s%n", model.flag(), (System.nanoTime() - loadStart) / 1e9);
        }
        if (!via.equals("engine")) {
            product(via, ingests, embedder, jar, conversations, corrections, out, model, start, settings(args));
            return;
        }
        LocomoConversation.Ingest ingest = ingests.get(0);

        boolean stopSweep = Arrays.asList(args).contains("--stop-sweep");
        List<ConversationRun.EngineMode> engineModes = ConversationRun.EngineMode.all(settings, stopSweep, centralityWeights);
        ConversationRun runner = new ConversationRun(embedder, Clock.fixed(NOW, ZoneOffset.UTC), ingest, engineModes);
        ConversationRun secondary = ingests.size() > 1
                ? new ConversationRun(embedder, Clock.fixed(NOW, ZoneOffset.UTC), ingests.get(1), engineModes) : null;
        List<Outcome> outcomes = new ArrayList<>();
        List<Outcome> secondaryOutcomes = new ArrayList<>();
        long turns = 0, ingestNanos = 0, embedNanos = 0;
        for (LocomoConversation c : conversations) {
            long t0 = System.nanoTime();
            Outcome o = runner.run(c);
            outcomes.add(o);
            if (secondary != null) secondaryOutcomes.add(secondary.run(c));
            turns += c.turns().size();
            ingestNanos += o.ingestNanos();
            embedNanos += o.embedNanos();
            System.err.printf(Locale.ROOT, "[%d/%d] %s (%s): %d turns remembered in %.1f s, embedded in %.1f s; %d questions; %.1f s total%n",
                    outcomes.size(), conversations.size(), c.sampleId(), LocomoEvaluation.DEV.contains(c.index()) ? "dev" : "test",
                    c.turns().size(), o.ingestNanos() / 1e9, o.embedNanos() / 1e9, c.questions().size(), (System.nanoTime() - t0) / 1e9);
        }

        LocomoEvaluation eval = new LocomoEvaluation(outcomes, corrections);
        LocomoTables tables = new LocomoTables(eval);
        List<RankingMode> weightedSweep = new ArrayList<>();
        for (double a : ALPHAS) weightedSweep.add(RankingMode.weighted(a));
        List<RankingMode> rrfSweep = new ArrayList<>();
        for (double w : new double[] {1, 2, 3}) {
            rrfSweep.add(RankingMode.rrfAdaptive(w));
            for (int k : new int[] {10, 30, 60}) rrfSweep.add(RankingMode.rrf(k, w));
        }
        boolean hasDev = outcomes.stream().anyMatch(o -> LocomoEvaluation.DEV.contains(o.conversation().index()));
        RankingMode bestWeighted = hasDev ? bestOnDev(eval, weightedSweep) : RankingMode.weighted(0.5);
        RankingMode bestRrf = hasDev ? bestOnDev(eval, rrfSweep) : RankingMode.rrf(60, 1);

        List<RankingMode> modes = new ArrayList<>();
        for (ConversationRun.EngineMode m : engineModes) modes.add(RankingMode.engine(m.name()));
        modes.addAll(List.of(RankingMode.bm25(), RankingMode.vector(),
                RankingMode.rrf(60, 1), RankingMode.rrfAdaptive(1), RankingMode.weighted(0.5)));
        addOrMark(modes, bestRrf, " (dev-best RRF)");
        addOrMark(modes, bestWeighted, " (dev-best weighted)");

        StringBuilder md = new StringBuilder();
        md.append("Path: --via engine (Engine API in process, bench clock fixed); ingestion: ").append(ingest.label()).append(".\n\n");
        md.append("### Official evidence labels, categories 1–4 (Recall_frac@k, NDCG@10 binary)\n\n").append(tables.headline(modes, false));
        if (secondary != null) {
            List<RankingMode> engineRows = engineModes.stream().map(m -> RankingMode.engine(m.name())).toList();
            md.append("\n### Secondary: ingestion ").append(ingests.get(1).label())
                    .append(", engine modes only (official labels, cats 1–4)\n\n")
                    .append(new LocomoTables(new LocomoEvaluation(secondaryOutcomes, corrections)).headline(engineRows, false));
        }
        md.append("\n### Audited evidence overlay (locomo-audit WRONG_CITATION → correct_evidence), categories 1–4\n\n")
                .append(tables.headline(modes, true));
        md.append("\n### Per category, test split (conversations 2–9), official labels\n\n").append(tables.perCategory(modes, Split.TEST));
        md.append("\n### Per category, dev split (conversations 0–1), official labels\n\n").append(tables.perCategory(modes, Split.DEV));
        md.append("\n### Dev sweep the fusions were chosen from (cats 1–4, official; criterion: mean of R@5 and R@10)\n\n")
                .append(tables.devSweep(weightedSweep)).append('\n').append(tables.devSweep(rrfSweep));
        if (outcomes.stream().anyMatch(o -> !LocomoEvaluation.DEV.contains(o.conversation().index()))) {
            RankingMode bm25 = RankingMode.bm25();
            md.append("\n### Paired differences on the test split (bootstrap over questions, 2,000 resamples)\n\n")
                    .append(tables.pairedDifferences(List.of(
                            new RankingMode[] {bestWeighted, bestRrf},
                            new RankingMode[] {bestWeighted, RankingMode.rrfAdaptive(1)},
                            new RankingMode[] {bestWeighted, RankingMode.weighted(0.5)},
                            new RankingMode[] {bestRrf, RankingMode.rrf(60, 1)},
                            new RankingMode[] {bestWeighted, bm25},
                            new RankingMode[] {RankingMode.rrf(60, 1), bm25},
                            new RankingMode[] {RankingMode.engine(engineModes.get(3).name()), RankingMode.engine(engineModes.get(2).name())},
                            new RankingMode[] {RankingMode.engine(engineModes.get(4).name()), RankingMode.engine(engineModes.get(2).name())},
                            new RankingMode[] {RankingMode.engine(engineModes.get(2).name()), bm25})));
        }
        md.append("\n### Cascade: questions that skipped the semantic layer\n\n").append(tables.cascadeSkips(engineModes.get(3).name()));
        if (stopSweep && hasDev) {
            md.append("\n### Stop rules on the same rankings (dev, cats 1–4, official labels)\n\n")
                    .append(new StopRuleSweep(eval, engineModes.get(4).name()).table(StopRuleSweep.grid()));
        }
        Latency embed = eval.queryEmbedding(Split.ALL);
        md.append(String.format(Locale.ROOT, "%nEmbedder: " + model.flag() + ". Query embedding (one question at a time): p50 %.2f ms, p95 %.2f ms; "
                        + "semantic modes' latencies above exclude it. Ingest: %d turns remembered in %.1f s (%.1f ms/turn), "
                        + "embedded in %.1f s (%.0f turns/s). Whole run: %.1f s.%n",
                embed.p50Ms(), embed.p95Ms(), turns, ingestNanos / 1e9, ingestNanos / 1e6 / Math.max(1, turns),
                embedNanos / 1e9, turns / Math.max(1e-9, embedNanos / 1e9), (System.nanoTime() - start) / 1e9));
        System.out.print(md);
        if (out != null) Files.writeString(Path.of(out), md.toString());
    }

    /**
     * Recall settings for the engine modes: the defaults, or overrides for a dev sweep
     * ({@code --alpha}, {@code --stop-coverage}, {@code --stop-missing}, {@code --stop-margin},
     * {@code --stop-margin-missing}, {@code --boost-scale},
     * {@code --graph-weight},
     * {@code --graph-hops}, {@code --centrality-weight}, {@code --depth}).
     */
    static RecallSettings settings(String[] args) {
        RecallSettings s = RecallSettings.defaults();
        String v;
        if ((v = option(args, "--alpha", null)) != null) s = s.withLexicalWeight(number("--alpha", v));
        if ((v = option(args, "--stop-coverage", null)) != null) s = s.withStop(s.stop().withCoverage(number("--stop-coverage", v)));
        if ((v = option(args, "--stop-missing", null)) != null) s = s.withStop(s.stop().withMissing(number("--stop-missing", v)));
        if ((v = option(args, "--stop-margin", null)) != null) s = s.withStop(s.stop().withMargin(number("--stop-margin", v)));
        if ((v = option(args, "--stop-margin-missing", null)) != null) {
            s = s.withStop(s.stop().withMarginMissing(number("--stop-margin-missing", v)));
        }
        if ((v = option(args, "--centrality-weight", null)) != null) s = s.withCentralityWeight(number("--centrality-weight", v));
        if ((v = option(args, "--boost-scale", null)) != null) s = s.withBoostScale(number("--boost-scale", v));
        if ((v = option(args, "--graph-weight", null)) != null) s = s.withGraphWeight(number("--graph-weight", v));
        if ((v = option(args, "--graph-hops", null)) != null) s = s.withGraphHops(whole("--graph-hops", v));
        if ((v = option(args, "--depth", null)) != null) s = s.withDepth(whole("--depth", v));
        return s;
    }

    /** Flags followed by a value. */
    private static final Set<String> VALUE_FLAGS = Set.of("--data", "--audit", "--conversations", "--ingest", "--via", "--jar", "--embedder",
            "--out", "--alpha", "--stop-coverage", "--stop-missing", "--stop-margin", "--stop-margin-missing", "--boost-scale",
            "--graph-weight", "--graph-hops", "--centrality-weight", "--depth", "--centrality-sweep");
    /** Flags that stand alone. */
    private static final Set<String> SWITCHES = Set.of("--stop-sweep");

    /**
     * Throws IllegalArgumentException naming the flag or setting when a flag is unknown, lacks its value, or
     * its value is not accepted: a mistyped {@code --alhpa} must not run the whole benchmark on the defaults.
     */
    public static void checkFlags(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (SWITCHES.contains(args[i])) continue;
            if (!VALUE_FLAGS.contains(args[i])) {
                throw new IllegalArgumentException("unknown flag '" + args[i] + "'; the flags are "
                        + new TreeSet<>(Stream.concat(VALUE_FLAGS.stream(), SWITCHES.stream()).toList()));
            }
            if (++i == args.length) throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        conversations(args);
        ingests(args);
        String via = via(args);
        BenchEmbedder model = embedder(args);
        for (String a : args) {
            if (SWEEPS.contains(a) && !via.equals("engine")) {
                throw new IllegalArgumentException(a + " applies to --via engine only; the product path (--via " + via
                        + ") runs one setting at a time");
            }
            if (SETTINGS.contains(a) && via.equals("mcp")) {
                throw new IllegalArgumentException(a + " applies to --via engine or tools; --via mcp runs the server's own settings");
            }
        }
        if (via.equals("mcp") && model == BenchEmbedder.BGE_SMALL_EN_V15) {
            throw new IllegalArgumentException("--via mcp runs a model bundled in the jar (e5-small-v2 or minilm); --embedder "
                    + model.flag() + " works with --via tools or engine");
        }
        centralityWeights(args, settings(args));
    }

    /** {@code --embedder minilm|e5-small-v2|bge-small-en-v1.5}: e5-small-v2 (the server's default) unless named. */
    static BenchEmbedder embedder(String[] args) {
        return BenchEmbedder.named(option(args, "--embedder", BenchEmbedder.E5_SMALL_V2.flag())); // the server's default
    }

    /** {@code --conversations 0,1}: the indexes to run; empty for all. */
    static Set<Integer> conversations(String[] args) {
        String only = option(args, "--conversations", null);
        if (only == null) return Set.of();
        return Arrays.stream(only.split(",")).map(v -> whole("--conversations", v.strip())).collect(Collectors.toSet());
    }

    /**
     * {@code --ingest plain|enriched|both}: plain (the default) writes each turn as an MCP client does; enriched is
     * the bench's earlier ingestion (session date in the content, consecutive turns linked); both measures plain
     * and adds enriched as a labelled secondary row in the same run. keyless writes plain turns without a key, as a
     * client that leaves keys to the engine does (a turn that repeats an earlier one word for word merges into it).
     */
    static List<LocomoConversation.Ingest> ingests(String[] args) {
        String v = option(args, "--ingest", "plain");
        if (v.equalsIgnoreCase("both")) return List.of(LocomoConversation.Ingest.PLAIN, LocomoConversation.Ingest.ENRICHED);
        List<LocomoConversation.Ingest> out = new ArrayList<>();
        for (String one : v.split(",")) {
            out.add(switch (one.strip().toLowerCase(Locale.ROOT)) {
                case "plain" -> LocomoConversation.Ingest.PLAIN;
                case "enriched" -> LocomoConversation.Ingest.ENRICHED;
                case "sessionless" -> LocomoConversation.Ingest.SESSIONLESS;
                case "timed" -> LocomoConversation.Ingest.TIMED;
                case "keyless" -> LocomoConversation.Ingest.KEYLESS;
                default -> throw new IllegalArgumentException("--ingest must be one or more (comma-separated) of"
                        + " [plain, enriched, sessionless, timed, keyless], or both, got '" + v + "'");
            });
        }
        return List.copyOf(out);
    }

    /**
     * {@code --via tools|mcp|engine}: tools (the default) calls the native profile's remember and recall handlers in
     * process, as the server does; mcp drives the built jar over stdio; engine calls the Engine API directly and
     * adds the reference rankings, fusions and sweeps (diagnostics).
     */
    static String via(String[] args) {
        String v = option(args, "--via", "tools").toLowerCase(Locale.ROOT);
        if (!Set.of("tools", "mcp", "engine").contains(v)) {
            throw new IllegalArgumentException("--via must be one of [tools, mcp, engine], got '" + v + "'");
        }
        return v;
    }

    /** Recall settings a dev sweep may change: read by the Engine API path and by the in-process tools, not by a server. */
    private static final Set<String> SETTINGS = Set.of("--alpha", "--stop-coverage", "--stop-missing", "--stop-margin",
            "--stop-margin-missing", "--boost-scale", "--graph-weight", "--graph-hops", "--centrality-weight", "--depth");
    /** Sweeps over many settings on one store: the Engine API path only. */
    private static final Set<String> SWEEPS = Set.of("--centrality-sweep", "--stop-sweep");

    /**
     * The product path (--via tools or mcp): each ingestion's turns remembered and questions recalled through the
     * tools, each client-selectable recall mode on its own copy of the store; one table row per (mode, ingestion).
     */
    private static void product(String via, List<LocomoConversation.Ingest> ingests, Embedder embedder, Path jar,
                                List<LocomoConversation> conversations, Map<String, List<String>> corrections, String out,
                                BenchEmbedder model, long start, RecallSettings settings) throws IOException {
        ProductRun.Via path = via.equals("mcp") ? ProductRun.Via.MCP : ProductRun.Via.TOOLS;
        List<Outcome> outcomes = new ArrayList<>();
        long turns = 0, ingestNanos = 0;
        for (LocomoConversation c : conversations) {
            long t0 = System.nanoTime();
                Outcome first = null;
            List<Map<String, ConversationRun.EngineAnswer>> answers = new ArrayList<>();
            for (int i = 0; i < c.questions().size(); i++) answers.add(new java.util.LinkedHashMap<>());
            for (LocomoConversation.Ingest ingest : ingests) {
                Outcome o = new ProductRun(path, ingest, embedder, jar, settings,
                        path == ProductRun.Via.MCP ? model.serverSetting() : null).run(c);
                if (first == null) first = o;
                for (int i = 0; i < o.questions().size(); i++) answers.get(i).putAll(o.questions().get(i).engine());
                ingestNanos += o.ingestNanos();
                turns += c.turns().size();
            }
            List<ConversationRun.QuestionRun> runs = new ArrayList<>();
            for (int i = 0; i < c.questions().size(); i++) {
                var q = first.questions().get(i);
                runs.add(new ConversationRun.QuestionRun(q.question(), answers.get(i), List.of(), 0, List.of(), 0, 0));
            }
            outcomes.add(new Outcome(c, runs, first.tokensByDiaId(), first.ingestNanos(), 0));
            System.err.printf(Locale.ROOT, "[%d/%d] %s (%s) via %s: %d turns, %d questions, %d ingestion(s) × %d modes; %.1f s%n",
                    outcomes.size(), conversations.size(), c.sampleId(), LocomoEvaluation.DEV.contains(c.index()) ? "dev" : "test",
                    via, c.turns().size(), c.questions().size(), ingests.size(), ProductRun.MODES.size(), (System.nanoTime() - t0) / 1e9);
        }
        LocomoEvaluation eval = new LocomoEvaluation(outcomes, corrections);
        LocomoTables tables = new LocomoTables(eval);
        List<RankingMode> modes = new ArrayList<>();
        for (LocomoConversation.Ingest ingest : ingests) {
            for (String name : ProductRun.modeNames(ingest)) modes.add(RankingMode.engine(name));
        }
        StringBuilder md = new StringBuilder();
        md.append("Path: --via ").append(via).append(via.equals("mcp")
                ? " (java -jar engram.jar --store DIR mcp, ENGRAM_EMBEDDER=" + model.serverSetting() + ", MCP Java SDK client over stdio)"
                : " (native profile's tool handlers through ToolAdapter.call, in process; embedder " + model.flag() + ")")
                .append(". Turns: remember {key, type: fact, content}; questions: recall with the arguments named in each row. ")
                .append("Rows marked enriched are the bench's earlier ingestion (session date in content, links to the previous turn), ")
                .append("a secondary reference, not what a client writes.\n\n");
        md.append("### Official evidence labels, categories 1–4 (Recall_frac@k, NDCG@10 binary)\n\n").append(tables.headline(modes, false));
        md.append("\n### Audited evidence overlay (locomo-audit WRONG_CITATION → correct_evidence), categories 1–4\n\n")
                .append(tables.headline(modes, true));
        md.append("\n### Per category, test split (conversations 2–9), official labels\n\n").append(tables.perCategory(modes, Split.TEST));
        md.append("\n### Per category, dev split (conversations 0–1), official labels\n\n").append(tables.perCategory(modes, Split.DEV));
        if (outcomes.stream().anyMatch(o -> !LocomoEvaluation.DEV.contains(o.conversation().index()))) {
            List<RankingMode[]> pairs = new ArrayList<>();
            pairs.add(new RankingMode[] {modes.get(1), modes.get(0)});
            if (modes.size() > 2) {
                pairs.add(new RankingMode[] {modes.get(2), modes.get(0)});
                pairs.add(new RankingMode[] {modes.get(3), modes.get(1)});
            }
            md.append("\n### Paired differences on the test split (bootstrap over questions, 2,000 resamples)\n\n")
                    .append(tables.pairedDifferences(pairs));
        }
        md.append("\n### Default recall: questions that skipped the semantic layer (").append(modes.get(0).name()).append(")\n\n")
                .append(tables.cascadeSkips(modes.get(0).name()));
        md.append(String.format(Locale.ROOT, "%nIngest: %d turns remembered through the tools in %.1f s (%.1f ms/turn, embedding included). "
                        + "Whole run: %.1f s.%n", turns, ingestNanos / 1e9, ingestNanos / 1e6 / Math.max(1, turns),
                (System.nanoTime() - start) / 1e9));
        System.out.print(md);
        if (out != null) Files.writeString(Path.of(out), md.toString());
    }

    /** {@code --centrality-sweep w1,w2,...}: each weight a number the settings accept. */
    static List<Double> centralityWeights(String[] args, RecallSettings settings) {
        String sweep = option(args, "--centrality-sweep", null);
        if (sweep == null) return List.of();
        List<Double> weights = new ArrayList<>();
        for (String w : sweep.split(",")) {
            double weight = number("--centrality-sweep", w.strip());
            settings.withCentralityWeight(weight); // refuses what the engine would
            weights.add(weight);
        }
        return List.copyOf(weights);
    }

    private static double number(String flag, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number, got '" + value + "'");
        }
    }

    private static int whole(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number, got '" + value + "'");
        }
    }

    /** Highest mean of dev R@5 and R@10 (cats 1–4, official labels); the first candidate wins ties. */
    private static RankingMode bestOnDev(LocomoEvaluation eval, List<RankingMode> candidates) {
        return candidates.stream().max(Comparator.comparingDouble((RankingMode m) -> {
            Cell c = eval.cell(m, Split.DEV, LocomoEvaluation.categories1to4(), false);
            return (c.recall5() + c.recall10()) / 2;
        }).thenComparing(m -> -candidates.indexOf(m))).orElseThrow();
    }

    private static void addOrMark(List<RankingMode> modes, RankingMode mode, String suffix) {
        for (int i = 0; i < modes.size(); i++) {
            if (modes.get(i).name().equals(mode.name())) {
                modes.set(i, mode.renamed(mode.name() + suffix)); // already listed: mark it instead of repeating it
                return;
            }
        }
        modes.add(mode.renamed(mode.name() + suffix));
    }

    private static String option(String[] args, String name, String fallback) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) return args[i + 1];
        }
        return fallback;
    }
}
