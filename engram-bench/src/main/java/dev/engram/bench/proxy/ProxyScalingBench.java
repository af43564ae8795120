package dev.engram.bench.proxy;

import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.PipelineText;
import dev.engram.proxy.pipeline.ProxiedCall;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the proxy's CLEAN → COMPRESS time grows with the size of one result: the stages
 * {@code engram proxy} runs on a call result ({@link Pipeline} of {@link CleanStage} and
 * {@link CompressStage}, AUTO, {@code max_result_chars} 8,000, {@link ResultBudget#DEFAULT}) on
 * generated text of each shape and size. Near-linear work shows as a flat ms/MiB column; the
 * "growth" column is ms/MiB relative to the smallest size, so superlinear growth stands out
 * whatever the machine's speed. Uses only the pipeline's public API, so the same class can time an
 * older engram-proxy put first on the classpath (docs/benchmarks.md §8 does so for before/after).
 */
public final class ProxyScalingBench {
    /** The shapes of text generated; each exercises a different way of cutting sections. */
    public enum Shape {
        /** Prose in paragraphs (blank lines between them), no headings. */
        PLAIN,
        /** Log lines without blank lines: sections end before a record or at a line. */
        LOG,
        /** Markdown: headings every 20-40 lines, some fenced code blocks. */
        MARKDOWN,
        /** A pretty-printed JSON array of objects. */
        JSON,
        /** Prose without a single line break (minified output): sections end anywhere, titles come from one huge line. */
        ONELINE,
        /**
         * Scraped HTML whose closing tags were lost: a {@code <script>} opening every few lines and never
         * closed, which made the cleaner's block regex scan to the end once per tag. Not a default shape.
         */
        TAGSOUP
    }

    public record Settings(List<Shape> shapes, List<Double> sizesMiB, int repeats, long seed) {
    }

    public record Row(Shape shape, int chars, double ms, String path, int outChars) {
        double mib() {
            return chars / (1024.0 * 1024.0);
        }

        double msPerMiB() {
            return ms / mib();
        }
    }

    private final PrintStream progress;

    public ProxyScalingBench(PrintStream progress) {
        this.progress = progress;
    }

    public List<Row> run(Settings settings) {
        List<Row> rows = new ArrayList<>();
        for (Shape shape : settings.shapes()) {
            // untimed: the first run pays for class loading and the JIT
            for (int i = 0; i < 3; i++) time(shape, generate(shape, 256 * 1024, settings.seed()));
            for (double mib : settings.sizesMiB()) {
                String text = generate(shape, (int) (mib * 1024 * 1024), settings.seed());
                double[] ms = new double[settings.repeats()];
                Row last = null;
                for (int r = 0; r < ms.length; r++) {
                    last = time(shape, text);
                    ms[r] = last.ms();
                }
                Arrays.sort(ms);
                Row row = new Row(shape, text.length(), ms[ms.length / 2], last.path(), last.outChars());
                progress.printf(Locale.ROOT, "%s %.2f MiB: %.0f ms (%s)%n", shape, row.mib(), row.ms(), row.path());
                rows.add(row);
            }
        }
        return rows;
    }

    private static Row time(Shape shape, String text) {
        AtomicLong keys = new AtomicLong();
        OriginalStore store = new OriginalStore(Clock.systemUTC(), () -> "k" + keys.incrementAndGet());
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(new Compressor(
                McpJsonDefaults.getMapper(), store, new RetentionFloor(RetentionFloor.DEFAULT),
                ProgressiveChunks.DEFAULT_CHUNK_CHARS))));
        UpstreamConfig upstream = new UpstreamConfig("bench", "b", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                CompressionMode.AUTO, UpstreamConfig.DEFAULT_MAX_RESULT_CHARS, 0);
        ProxiedCall call = new ProxiedCall(upstream, "read", "b__read", Map.of(), ResultBudget.DEFAULT);
        long t = System.nanoTime();
        PipelineText out = pipeline.run(call, text);
        double ms = (System.nanoTime() - t) / 1e6;
        return new Row(shape, text.length(), ms, out.path(), out.text().length());
    }

    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| shape | MiB | chars | ms | ms/MiB | growth | path | out chars |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---|---:|\n");
        Shape current = null;
        double base = 0;
        for (Row r : rows) {
            if (r.shape() != current) {
                current = r.shape();
                base = r.msPerMiB();
            }
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %d | %.0f | %.0f | %.1fx | %s | %d |%n",
                    r.shape().name().toLowerCase(Locale.ROOT), r.mib(), r.chars(), r.ms(), r.msPerMiB(),
                    r.msPerMiB() / base, r.path(), r.outChars()));
        }
        return sb.toString();
    }

    /** Seeded text of about {@code chars} characters (cut at a line, JSON closed properly). */
    public static String generate(Shape shape, int chars, long seed) {
        Random rnd = new Random(seed ^ shape.ordinal());
        StringBuilder sb = new StringBuilder(chars + 4096);
        switch (shape) {
            case PLAIN -> {
                while (sb.length() < chars) {
                    int lines = 2 + rnd.nextInt(8);
                    for (int i = 0; i < lines; i++) sb.append(sentence(rnd)).append(' ').append(sentence(rnd)).append('\n');
                    sb.append('\n');
                }
            }
            case LOG -> {
                long n = 0;
                while (sb.length() < chars) {
                    sb.append(String.format(Locale.ROOT, "2026-12-01T10:%02d:%02d.%03dZ %s [worker-%d] ", (n / 60) % 60,
                            n % 60, n % 1000, rnd.nextInt(10) == 0 ? "WARN" : "INFO", rnd.nextInt(8)));
                    sb.append(sentence(rnd)).append('\n');
                    n++;
                }
            }
            case MARKDOWN -> {
                int section = 0;
                while (sb.length() < chars) {
                    sb.append(section % 5 == 0 ? "# " : "## ").append("Section ").append(++section).append(": ")
                            .append(word(rnd)).append(' ').append(word(rnd)).append("\n\n");
                    int lines = 20 + rnd.nextInt(20);
                    for (int i = 0; i < lines; i++) {
                        if (i % 12 == 11) {
                            sb.append("```\n").append("run --").append(word(rnd)).append(" --level ").append(i).append("\n```\n\n");
                        } else {
                            sb.append(i % 4 == 0 ? "- " : "").append(sentence(rnd)).append('\n');
                            if (i % 4 == 3) sb.append('\n');
                        }
                    }
                    sb.append('\n');
                }
            }
            case JSON -> {
                sb.append("[\n");
                int id = 0;
                while (sb.length() < chars) {
                    if (id > 0) sb.append(",\n");
                    sb.append("  {\n    \"id\": ").append(id++).append(",\n    \"name\": \"").append(word(rnd)).append('-')
                            .append(word(rnd)).append("\",\n    \"tags\": [\"").append(word(rnd)).append("\", \"")
                            .append(word(rnd)).append("\"],\n    \"description\": \"").append(sentence(rnd))
                            .append("\"\n  }");
                }
                sb.append("\n]\n");
                return sb.toString();
            }
            case ONELINE -> {
                while (sb.length() < chars) sb.append(sentence(rnd)).append(' ');
                return sb.substring(0, chars);
            }
            case TAGSOUP -> {
                int line = 0;
                while (sb.length() < chars) {
                    if (line++ % 5 == 0) sb.append("<script src=\"/js/").append(word(rnd)).append(".js\">");
                    sb.append("<p>").append(sentence(rnd)).append("</p>\n");
                }
            }
            default -> throw new IllegalArgumentException(shape.name());
        }
        int cut = sb.lastIndexOf("\n", chars);
        return sb.substring(0, cut < 0 ? Math.min(chars, sb.length()) : cut + 1);
    }

    private static final String[] WORDS = ("the proxy cleans and compresses responses of upstream servers so that an agent "
            + "reads fewer tokens while every part of the original stays one call away index section budget chunk "
            + "request timeout cache memory store retry backoff latency throughput config parser token render").split(" ");

    private static String word(Random rnd) {
        return WORDS[rnd.nextInt(WORDS.length)];
    }

    private static String sentence(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = 6 + rnd.nextInt(10);
        for (int i = 0; i < n; i++) {
            String w = word(rnd);
            if (i == 0) w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
            if (i > 0) sb.append(' ');
            sb.append(w);
        }
        return sb.append('.').toString();
    }
}
