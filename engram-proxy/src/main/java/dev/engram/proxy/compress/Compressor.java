package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.CompressionMode;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * COMPRESS: picks a strategy (the configured one, or {@link StrategyChooser} for AUTO), checks the
 * view against the {@link RetentionFloor} and walks the fallback ladder progressive → hybrid →
 * truncate when AUTO's choice does not apply or keeps too little. An explicitly configured
 * strategy is honoured as asked, falling back only when it does not apply. Stores the original
 * whenever the agent gets anything but the original itself. Thread-safe.
 */
public final class Compressor {
    /**
     * Results longer than this (8 Mi characters) are neither cleaned nor analysed: the agent gets the
     * first chunk, exact, and a note, and the whole original is stored for read_more and select_chunks
     * (sections by paragraph, as for plain text). The work is linear below the cap (about 0.1 s per MiB,
     * docs/benchmarks.md §8), but a result this large is beyond what a view can usefully summarize, and
     * the cap keeps the cost of any content, cleaning's regular expressions included, far from a call
     * timeout. It is half the largest message the proxy reads from an upstream (16 Mi characters).
     */
    public static final int MAX_PROCESSED_CHARS = 8 * 1024 * 1024;

    private final McpJsonMapper mapper;
    private final OriginalStore originals;
    private final RetentionFloor floor;
    private final LlmSummary llm;
    private final Map<CompressionMode, CompressionStrategy> strategies = new EnumMap<>(CompressionMode.class);

    public Compressor(McpJsonMapper mapper, OriginalStore originals, RetentionFloor floor, int chunkChars) {
        this(mapper, originals, floor, chunkChars, TocFormat.Choice.DEFAULT, null);
    }

    /**
     * {@code toc}: how tables of contents are written (the {@code toc_format} setting); {@code llm}: the
     * model summary, null when no chat endpoint is configured ({@code llm_summary} then falls back).
     */
    public Compressor(McpJsonMapper mapper, OriginalStore originals, RetentionFloor floor, int chunkChars,
                      TocFormat.Choice toc, LlmSummary llm) {
        this.llm = llm;
        this.mapper = mapper;
        this.originals = originals;
        this.floor = floor;
        for (CompressionStrategy s : List.of(new TruncateStrategy(), new SelectiveStrategy(toc.selective()),
                new ProgressiveStrategy(chunkChars, toc.views()), new HybridStrategy(toc.views()),
                new SchemaPruningStrategy(mapper), new FieldExtractionStrategy(mapper), new SkeletonStrategy())) {
            strategies.put(s.mode(), s);
        }
    }

    public OriginalStore originals() {
        return originals;
    }

    /**
     * {@code raw} is the upstream's text, {@code cleaned} what CLEAN made of it; {@code budget} bounds
     * the returned text. Raw text within budget never reaches here (the pipeline passes it through).
     */
    public CompressionOutcome compress(String server, String tool, String raw, String cleaned, int budget,
                                       CompressionMode mode) {
        return compress(server, tool, raw, cleaned, budget, mode, null);
    }

    /**
     * As {@link #compress(String, String, String, String, int, CompressionMode)}, steered by the agent's
     * {@code _context_query} (null: none). When sections match it, truncate and hybrid show those
     * sections rather than the beginning, and AUTO picks hybrid for what it would have shown as a
     * beginning, an outline or a bare table of contents (progressive, hybrid, skeleton, selective):
     * the agent said what it is looking for, and it may be anywhere in the text. JSON summaries
     * (schema pruning, field extraction) show the whole structure and stay as they are. Without a query,
     * or when nothing matches it, the view is exactly the one without.
     */
    public CompressionOutcome compress(String server, String tool, String raw, String cleaned, int budget,
                                       CompressionMode mode, String contextQuery) {
        String key = originals.newKey();
        if (cleaned.length() <= budget || mode == CompressionMode.NONE) {
            String footer = Footers.original(key, raw.length(), "cleaned: " + cleaned.length() + " of " + raw.length() + " chars");
            if (mode == CompressionMode.NONE || cleaned.length() + footer.length() > budget) {
                return new CompressionOutcome(cleaned, CompressionMode.NONE, "none", 1.0, null);
            }
            store(key, server, tool, raw, Sections.split(raw));
            return new CompressionOutcome(cleaned + footer, CompressionMode.NONE, "clean", 1.0, key);
        }
        if (raw.length() > MAX_PROCESSED_CHARS) return oversized(key, server, tool, raw, budget);
        // the split scans the whole text: only where a view is made and the original stored
        List<Section> sections = Sections.split(raw);
        ContentShape shape = ContentShape.of(cleaned, mapper);
        List<SectionRanker.Ranked> focus = contextQuery == null || contextQuery.isBlank() ? List.of()
                : SectionRanker.rank(contextQuery, raw, sections);
        CompressionInput input = new CompressionInput(raw, cleaned, budget, key, sections, shape.json(), contextQuery, focus);
        boolean auto = mode == CompressionMode.AUTO;
        CompressionMode first = auto ? focused(StrategyChooser.choose(shape, cleaned.length(), budget), input) : mode;
        String llmPath = "";
        String llmNote = "";
        if (first == CompressionMode.LLM_SUMMARY) {
            LlmSummary.Attempt a = llm == null ? LlmSummary.unconfigured() : llm.summarize(input);
            if (a.summary() != null) {
                store(key, server, tool, raw, sections);
                return new CompressionOutcome(a.summary().text(), CompressionMode.LLM_SUMMARY, "llm_summary",
                        a.summary().retention(), key);
            }
            // the automatic choice's view instead, with room for the note that says why
            llmNote = "\n[llm_summary not used: " + shorten(a.why()) + "; the view above is the automatic choice]";
            llmPath = "llm_summary→" + a.fallback() + "_fallback→";
            first = focused(StrategyChooser.choose(shape, cleaned.length(), budget), input);
            auto = true;
            input = input.withBudget(Math.max(0, budget - llmNote.length()));
        }
        CompressionInput in = input;
        double minimum = auto ? floor.forSize(cleaned.length()) : 0.0;
        Optional<Compressed> result = strategies.get(first).compress(in).filter(c -> c.retention() >= minimum);
        String path = first.id();
        for (CompressionMode rung : List.of(CompressionMode.PROGRESSIVE, CompressionMode.HYBRID, CompressionMode.TRUNCATE)) {
            if (result.isPresent()) break;
            if (rung == first) continue;
            double need = rung == CompressionMode.TRUNCATE ? 0.0 : minimum;
            result = strategies.get(rung).compress(in).filter(c -> c.retention() >= need);
            path = path + "→" + rung.id() + "_fallback";
        }
        Compressed c = result.orElseThrow(() -> new IllegalStateException("truncate must always apply"));
        store(key, server, tool, raw, sections);
        // the stats tell calls steered by a query from the others
        boolean steered = in.focused() && (c.strategy() == CompressionMode.HYBRID || c.strategy() == CompressionMode.TRUNCATE);
        return new CompressionOutcome(c.text() + llmNote, c.strategy(), llmPath + path + (steered ? "+context_query" : ""),
                c.retention(), key);
    }

    /** AUTO's choice when sections match the agent's query: a view that shows them (hybrid) instead of the text's start or outline. */
    private static CompressionMode focused(CompressionMode chosen, CompressionInput in) {
        if (!in.focused()) return chosen;
        return switch (chosen) {
            case PROGRESSIVE, HYBRID, SKELETON, SELECTIVE -> CompressionMode.HYBRID;
            default -> chosen;
        };
    }

    /** A fallback's reason for the agent: one line, at most 300 chars (an endpoint's error can be long). */
    private static String shorten(String why) {
        String flat = why.replaceAll("\\s+", " ");
        return TextCut.clip(flat, 300);
    }

    /**
     * Over {@link #MAX_PROCESSED_CHARS}: the first chunk of the raw text (not cleaned), its progressive
     * footer and a note saying why; truncated to the budget if even a short chunk does not fit.
     */
    private CompressionOutcome oversized(String key, String server, String tool, String raw, int budget) {
        StoredResult stored = new StoredResult(key, server, tool, raw, Sections.plain(raw));
        originals.put(stored);
        String note = "\n[" + raw.length() + " chars: over the proxy's cap of " + MAX_PROCESSED_CHARS
                + " for cleaning and compressing one result; the original is stored whole, in sections s1 .. s"
                + stored.sections().size() + " of about " + Sections.TARGET_CHARS + " chars (stm_proxy_select_chunks)]";
        for (int limit = budget - Footers.RESERVE - 200 - note.length(); limit >= 100; limit /= 2) {
            String text = ProgressiveChunks.chunk(stored, 0, limit) + note;
            if (text.length() <= budget) return new CompressionOutcome(text, CompressionMode.PROGRESSIVE, "oversized_progressive", 1.0, key);
        }
        String footer = Footers.original(key, raw.length(), "over the processing cap of " + MAX_PROCESSED_CHARS + " chars: not cleaned");
        String kept = TruncateStrategy.cut(raw, Math.max(0, budget - footer.length()));
        return new CompressionOutcome(kept + footer, CompressionMode.TRUNCATE, "oversized_truncate",
                (double) kept.length() / raw.length(), key);
    }

    private void store(String key, String server, String tool, String raw, List<Section> sections) {
        originals.put(new StoredResult(key, server, tool, raw, sections));
    }
}
