package dev.engram.bench.proxy;

import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.Footers;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.compress.Section;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.compress.TextCleaner;
import dev.engram.proxy.compress.TocFormat;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.PipelineText;
import dev.engram.proxy.pipeline.ProxiedCall;
import dev.engram.mcp.render.TokenEstimate;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token savings per compression strategy on the fixed {@link BenchCorpus}, through the proxy's own
 * CLEAN and COMPRESS stages with the default budget rule ({@link ResultBudget}): per response,
 * tokens in and out ({@link TokenEstimate}), whether the original comes back exactly through
 * read_more (every chunk) and through select_chunks (every section), and whether each question's
 * line is in the first answer or in the answer of one follow-up call made with the defaults
 * (read_more from the footer's offset with 4,000 chars, or select_chunks of one section listed in
 * the view; the section is picked by an oracle, an agent has the titles and previews to go by).
 * Ends with whether every response over 5,000 chars met the 50% target under AUTO, whether every
 * question of every compressed response was reachable so, and the pipeline's own time on
 * pass-through. The budget rule comes from the proxy's environment variables ({@code ENGRAM_PROXY_COMPRESS_ABOVE_CHARS}, {@code ENGRAM_PROXY_MAX_RESULT_SHARE}).
 * <pre>java -cp … dev.engram.bench.proxy.ProxyBench [max-result-chars]</pre>
 */
public final class ProxyBench {
    /** A strategy and the table-of-contents form it writes; {@code label} marks the non-default form's rows. */
    record Variant(CompressionMode mode, TocFormat.Choice toc, String label) {
    }

    private static final TocFormat.Choice DEFAULT = TocFormat.Choice.DEFAULT;
    private static final List<Variant> MODES = List.of(new Variant(CompressionMode.AUTO, DEFAULT, ""),
            new Variant(CompressionMode.TRUNCATE, DEFAULT, ""),
            new Variant(CompressionMode.SELECTIVE, DEFAULT, ""),
            new Variant(CompressionMode.SELECTIVE, TocFormat.Choice.all(TocFormat.TEXT), " [text toc]"),
            new Variant(CompressionMode.PROGRESSIVE, DEFAULT, ""),
            new Variant(CompressionMode.PROGRESSIVE, TocFormat.Choice.all(TocFormat.JSON), " [json toc]"),
            new Variant(CompressionMode.HYBRID, DEFAULT, ""),
            new Variant(CompressionMode.HYBRID, TocFormat.Choice.all(TocFormat.JSON), " [json toc]"),
            new Variant(CompressionMode.SCHEMA_PRUNING, DEFAULT, ""),
            new Variant(CompressionMode.EXTRACT_FIELDS, DEFAULT, ""),
            new Variant(CompressionMode.SKELETON, DEFAULT, ""));
    private static final double TARGET_SAVED = 0.5;

    private ProxyBench() {
    }

    public static void main(String[] args) {
        int maxChars = args.length > 0 ? Integer.parseInt(args[0]) : UpstreamConfig.DEFAULT_MAX_RESULT_CHARS;
        // the proxy's own settings: ENGRAM_PROXY_MAX_RESULT_SHARE=1 gives the fixed budget alone (the rule before issue 4)
        ResultBudget rule = ProxySettings.fromEnv(System.getenv()).resultBudget();
        AtomicLong keys = new AtomicLong();
        OriginalStore store = new OriginalStore(Clock.systemUTC(), () -> String.format("%012d", keys.incrementAndGet()));
        Map<TocFormat.Choice, Pipeline> pipelines = new java.util.HashMap<>();
        for (TocFormat.Choice c : List.of(DEFAULT, TocFormat.Choice.all(TocFormat.TEXT), TocFormat.Choice.all(TocFormat.JSON))) {
            pipelines.put(c, pipeline(store, c));
        }
        System.out.printf("max_result_chars %d; results over %d chars get at most %.0f%% of their size; tokens = chars / 4,"
                + " rounded up.%n%n", maxChars, rule.compressAboveChars(), 100 * rule.maxShare());
        System.out.println("| response | chars | strategy (path) | tokens in | tokens out | saved | exact recovery"
                + " (read_more / select_chunks) | reachable ≤1 follow-up |");
        System.out.println("|---|---:|---|---:|---:|---:|---|---:|");
        Summary summary = new Summary();
        Map<TocFormat.Choice, long[]> autoByToc = new java.util.LinkedHashMap<>();
        for (BenchCorpus.Doc doc : BenchCorpus.load()) {
            for (Variant v : MODES) {
                CompressionMode mode = v.mode();
                Row r = run(pipelines.get(v.toc()), store, doc, maxChars, mode, rule);
                if (mode == CompressionMode.AUTO) summary.add(doc, r, rule);
                // passed through, or cleaning alone fit: every strategy gives the same answer, print it once
                else if (r.passedThrough() || r.path.equals("clean")) continue;
                System.out.printf("| %s | %d | %s | %d | %d | %.0f%% | %s | %d/%d |%n", doc.name(), doc.text().length(),
                        (mode == CompressionMode.AUTO ? "auto (" + r.path + ")" : r.path) + v.label(), r.tokensIn, r.tokensOut,
                        100 * r.saved(), r.recovery(), r.reachable, doc.needles().size());
            }
            // AUTO with every table of contents in one form: what toc_format costs on the whole corpus
            for (TocFormat.Choice c : List.of(TocFormat.Choice.all(TocFormat.TEXT), TocFormat.Choice.all(TocFormat.JSON))) {
                Row r = run(pipelines.get(c), store, doc, maxChars, CompressionMode.AUTO, rule);
                long[] t = autoByToc.computeIfAbsent(c, k -> new long[3]);
                t[0] += r.tokensIn;
                t[1] += r.tokensOut;
                t[2] += r.reachable == doc.needles().size() ? 0 : 1;
            }
        }
        summary.print(rule);
        autoByToc.forEach((c, t) -> System.out.printf("AUTO with toc_format=%s: %d → %d tokens over the whole corpus;"
                + " responses with a question not reachable in one follow-up: %d.%n", c.selective().id(), t[0], t[1], t[2]));
        passThrough(maxChars, rule);
    }

    private static Pipeline pipeline(OriginalStore store) {
        return pipeline(store, TocFormat.Choice.DEFAULT);
    }

    private static Pipeline pipeline(OriginalStore store, TocFormat.Choice toc) {
        return new Pipeline(List.of(new CleanStage(), new CompressStage(new Compressor(McpJsonDefaults.getMapper(), store,
                new RetentionFloor(RetentionFloor.DEFAULT), ProgressiveChunks.DEFAULT_CHUNK_CHARS, toc, null))));
    }

    private static ProxiedCall call(CompressionMode mode, int maxChars, ResultBudget rule) {
        UpstreamConfig upstream = new UpstreamConfig("bench", "b", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                mode, maxChars, 0);
        return new ProxiedCall(upstream, "read", "b__read", Map.of(), rule);
    }

    /** {@code readMore}/{@code select}: null when nothing was stored (the agent got the original itself). */
    record Row(String path, int tokensIn, int tokensOut, Boolean readMore, Boolean select, int reachable) {
        boolean passedThrough() {
            return readMore == null;
        }

        double saved() {
            return tokensIn == 0 ? 0 : (double) (tokensIn - tokensOut) / tokensIn;
        }

        boolean exact() {
            return passedThrough() || readMore && select;
        }

        String recovery() {
            return passedThrough() ? "untouched" : (readMore ? "yes" : "NO") + " / " + (select ? "yes" : "NO");
        }
    }

    static Row run(Pipeline pipeline, OriginalStore store, BenchCorpus.Doc doc, int maxChars, CompressionMode mode,
                   ResultBudget rule) {
        String raw = doc.text();
        PipelineText out = pipeline.run(call(mode, maxChars, rule), raw);
        StoredResult stored = out.resultKey() == null ? null : store.get(out.resultKey()).orElseThrow();
        if (stored == null && !out.untouched()) throw new IllegalStateException(doc.name() + ": changed but not stored");
        int reachable = 0;
        for (String needle : doc.needles()) {
            if (out.text().contains(needle) || out.text().contains(TextCleaner.clean(needle).strip())
                    || (stored != null && oneFollowUp(out.text(), stored, needle))) {
                reachable++;
            }
        }
        String path = out.untouched() ? "none (pass-through)" : out.path();
        return new Row(path, TokenEstimate.of(raw), TokenEstimate.of(out.text()),
                stored == null ? null : readAll(stored).equals(raw), stored == null ? null : selectAll(stored).equals(raw),
                reachable);
    }

    /** What one default follow-up could return: the next progressive chunk, or one listed section. */
    static boolean oneFollowUp(String view, StoredResult stored, String needle) {
        String chunk = ProgressiveChunks.chunk(stored, nextOffset(view), ProgressiveChunks.DEFAULT_CHUNK_CHARS);
        if (chunk.substring(0, chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN)).contains(needle)) return true;
        for (Section s : stored.sections()) {
            // a text list's line, or an entry of selective's JSON table of contents
            boolean listed = view.contains("- " + s.id() + " \"") || view.contains("{\"key\": \"" + s.id() + "\",")
                    || view.contains("[" + s.id() + " · "); // a skeleton's heading label
            if (listed && stored.original().substring(s.start(), s.end()).contains(needle)) return true;
        }
        return false;
    }

    private static int nextOffset(String view) {
        int at = view.lastIndexOf("offset=");
        if (at < 0) return 0;
        int end = at + 7;
        while (end < view.length() && Character.isDigit(view.charAt(end))) end++;
        return Integer.parseInt(view.substring(at + 7, end));
    }

    /** stm_proxy_read_more from offset 0 until has_more=false, split on the footer token. */
    static String readAll(StoredResult stored) {
        StringBuilder sb = new StringBuilder();
        int offset = 0;
        for (;;) {
            String chunk = ProgressiveChunks.chunk(stored, offset, ProgressiveChunks.DEFAULT_CHUNK_CHARS);
            int at = chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
            sb.append(chunk, 0, at);
            offset += at;
            // the footer decides, not the text: a document may itself contain "has_more=false"
            if (chunk.substring(at).contains("has_more=false")) return sb.toString();
        }
    }

    /** stm_proxy_select_chunks of every section id, in order (the tool concatenates the sections' text). */
    static String selectAll(StoredResult stored) {
        StringBuilder sb = new StringBuilder();
        for (Section listed : stored.sections()) {
            Section s = stored.section(listed.id()).orElseThrow(); // looked up by id, as the tool does
            sb.append(stored.original(), s.start(), s.end());
        }
        return sb.toString();
    }

    /** AUTO over the corpus: the targets. */
    private static final class Summary {
        private long inOver;
        private long outOver;
        private int over;
        private final List<String> missed = new ArrayList<>();
        private int exact;
        private int compressed;
        private int small;
        private int smallUntouched;
        private final List<String> unreachable = new ArrayList<>();

        void add(BenchCorpus.Doc doc, Row r, ResultBudget rule) {
            if (doc.text().length() > rule.compressAboveChars()) {
                over++;
                inOver += r.tokensIn;
                outOver += r.tokensOut;
                if (r.saved() < TARGET_SAVED) missed.add(doc.name() + String.format(" (%.0f%%)", 100 * r.saved()));
            } else {
                small++;
                if (r.passedThrough()) smallUntouched++;
            }
            if (!r.passedThrough()) {
                compressed++;
                if (r.exact()) exact++;
                if (r.reachable < doc.needles().size()) {
                    unreachable.add(doc.name() + " (" + r.reachable + "/" + doc.needles().size() + ")");
                }
            }
        }

        void print(ResultBudget rule) {
            System.out.printf("%nAUTO on the %d responses over %d chars: %d → %d tokens (%.0f%% fewer).%n", over,
                    rule.compressAboveChars(), inOver, outOver, 100.0 * (inOver - outOver) / Math.max(1, inOver));
            System.out.printf("Every response over %d chars saved at least 50%% under AUTO: %s.%n", rule.compressAboveChars(),
                    missed.isEmpty() ? "YES (" + over + " of " + over + ")" : "NO, missed by " + String.join(", ", missed));
            System.out.printf("Exact recovery of every compressed response (read_more and select_chunks): %d of %d.%n",
                    exact, compressed);
            System.out.printf("Responses of at most %d chars passed through untouched: %d of %d.%n", rule.compressAboveChars(),
                    smallUntouched, small);
            System.out.printf("Every question of every compressed response reachable in at most one follow-up: %s.%n",
                    unreachable.isEmpty() ? "YES (" + compressed + " of " + compressed + ")"
                            : "NO, " + String.join(", ", unreachable));
        }
    }

    /** The CLEAN and COMPRESS stages on a result that passes through: what pass-through costs in the proxy itself. */
    static void passThrough(int maxChars, ResultBudget rule) {
        Pipeline pipeline = pipeline(new OriginalStore(Clock.systemUTC(), () -> "k"));
        ProxiedCall call = call(CompressionMode.AUTO, maxChars, rule);
        String small = "hello from the proxy test\n".repeat(180);
        long[] ns = new long[20_000];
        for (int i = 0; i < ns.length; i++) {
            long t = System.nanoTime();
            PipelineText out = pipeline.run(call, small);
            ns[i] = System.nanoTime() - t;
            if (!out.untouched()) throw new IllegalStateException("expected a pass-through");
        }
        long[] measured = Arrays.copyOfRange(ns, ns.length / 2, ns.length); // second half: after JIT warm-up
        Arrays.sort(measured);
        System.out.printf("Pass-through (%d chars) in the pipeline: p50 %.1f µs, p99 %.1f µs over %d runs after warm-up.%n",
                small.length(), measured[measured.length / 2] / 1000.0, measured[(int) (measured.length * 0.99)] / 1000.0,
                measured.length);
    }
}
