package dev.engram.bench.proxy;

import dev.engram.proxy.compress.CompressionOutcome;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.Footers;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.compress.Section;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.compress.TextCleaner;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.ProxiedCall;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token savings per compression strategy on {@link BenchCorpus}, with the proxy's real compressor:
 * tokens in and out (chars / 4, Engram's estimate), whether the original comes back exactly through
 * the follow-up tools, and whether each question's line is in the first answer or in the answer of
 * one follow-up call made with the defaults (read_more from the footer's offset with 4,000 chars, or
 * select_chunks of one section listed in the view). Also the pipeline's own time on pass-through.
 * <pre>java -cp … dev.engram.bench.proxy.ProxyBench [repo-dir] [budget-chars]</pre>
 */
public final class ProxyBench {
    private static final List<CompressionMode> MODES = List.of(CompressionMode.AUTO, CompressionMode.TRUNCATE,
            CompressionMode.SELECTIVE, CompressionMode.PROGRESSIVE, CompressionMode.HYBRID,
            CompressionMode.SCHEMA_PRUNING, CompressionMode.EXTRACT_FIELDS);

    private ProxyBench() {
    }

    public static void main(String[] args) {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int budget = args.length > 1 ? Integer.parseInt(args[1]) : UpstreamConfig.DEFAULT_MAX_RESULT_CHARS;
        List<BenchCorpus.Doc> docs = BenchCorpus.load(repo);
        AtomicLong keys = new AtomicLong();
        OriginalStore store = new OriginalStore(Clock.systemUTC(), () -> String.format("%012d", keys.incrementAndGet()));
        Compressor compressor = new Compressor(McpJsonDefaults.getMapper(), store, new RetentionFloor(0.65),
                ProgressiveChunks.DEFAULT_CHUNK_CHARS);
        System.out.println("Budget " + budget + " chars per result; tokens = chars / 4.\n");
        System.out.println("| response | strategy (path) | tokens in | tokens out | saved | exact recovery | reachable ≤1 follow-up |");
        System.out.println("|---|---|---:|---:|---:|---|---:|");
        long[] totals = new long[4];
        for (BenchCorpus.Doc doc : docs) {
            for (CompressionMode mode : MODES) {
                if (doc.text().length() <= budget && mode != CompressionMode.AUTO) continue;
                Row r = run(compressor, store, doc, budget, mode);
                // cleaning alone fit the budget: every strategy gives the same answer, print it once
                if (mode != CompressionMode.AUTO && r.path.equals("clean")) continue;
                if (mode == CompressionMode.AUTO && doc.text().length() > 5 * 1024) {
                    totals[0] += r.in;
                    totals[1] += r.out;
                    totals[2] += r.exact ? 1 : 0;
                    totals[3]++;
                }
                System.out.printf("| %s (%d KB) | %s | %d | %d | %.0f%% | %s | %d/%d |%n", doc.name(), doc.text().length() / 1024,
                        mode == CompressionMode.AUTO ? "auto (" + r.path + ")" : r.path, r.in / 4, r.out / 4,
                        100.0 * (r.in - r.out) / r.in, r.exact ? "yes" : "NO", r.reachable, doc.needles().size());
            }
        }
        System.out.printf("%nAUTO on responses over 5 KB: %d → %d tokens (%.0f%% fewer); exact recovery %d/%d.%n",
                totals[0] / 4, totals[1] / 4, 100.0 * (totals[0] - totals[1]) / Math.max(1, totals[0]), totals[2], totals[3]);
        passThrough(budget);
    }

    record Row(String path, long in, long out, boolean exact, int reachable) {
    }

    static Row run(Compressor compressor, OriginalStore store, BenchCorpus.Doc doc, int budget, CompressionMode mode) {
        String raw = doc.text();
        if (raw.length() <= budget) return new Row("none (pass-through)", raw.length(), raw.length(), true, doc.needles().size());
        CompressionOutcome out = compressor.compress("bench", doc.name(), raw, TextCleaner.clean(raw), budget, mode);
        StoredResult stored = out.key() == null ? null : store.get(out.key()).orElseThrow();
        boolean exact = stored != null && readAll(stored).equals(raw);
        int reachable = 0;
        for (String needle : doc.needles()) {
            if (out.text().contains(needle) || (stored != null && oneFollowUp(out.text(), stored, needle))) reachable++;
        }
        return new Row(out.path(), raw.length(), out.text().length(), exact, reachable);
    }

    /** What one default follow-up could return: the next progressive chunk, or one listed section. */
    static boolean oneFollowUp(String view, StoredResult stored, String needle) {
        int next = nextOffset(view);
        String chunk = ProgressiveChunks.chunk(stored, next, ProgressiveChunks.DEFAULT_CHUNK_CHARS);
        if (chunk.substring(0, chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN)).contains(needle)) return true;
        for (Section s : stored.sections()) {
            boolean listed = view.contains("- " + s.id() + " \"");
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

    /** The CLEAN and COMPRESS stages on a result within budget: what pass-through costs in the proxy itself. */
    static void passThrough(int budget) {
        OriginalStore store = new OriginalStore(Clock.systemUTC(), () -> "k");
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(new Compressor(McpJsonDefaults.getMapper(),
                store, new RetentionFloor(0.65), ProgressiveChunks.DEFAULT_CHUNK_CHARS))));
        ProxiedCall call = new ProxiedCall(new UpstreamConfig("bench", "b", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                CompressionMode.AUTO, budget, 0), "read", "b__read", Map.of());
        String small = "hello from the proxy test\n".repeat(200);
        long[] ns = new long[20_000];
        for (int i = 0; i < ns.length; i++) {
            long t = System.nanoTime();
            pipeline.run(call, small);
            ns[i] = System.nanoTime() - t;
        }
        long[] measured = Arrays.copyOfRange(ns, ns.length / 2, ns.length); // second half: after JIT warm-up
        Arrays.sort(measured);
        System.out.printf("Pass-through (%d chars) in the pipeline: p50 %.1f µs, p99 %.1f µs over %d runs after warm-up.%n",
                small.length(), measured[measured.length / 2] / 1000.0, measured[(int) (measured.length * 0.99)] / 1000.0,
                measured.length);
    }
}
