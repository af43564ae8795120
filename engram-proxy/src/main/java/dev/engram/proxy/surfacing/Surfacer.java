package dev.engram.proxy.surfacing;

import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.proxy.stats.ProxyStats;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SURFACE: finds up to {@code maxResults} memories relevant to a proxied call. Gate order: result
 * size, query tokens, write-like tool names, rate limit and cooldown, circuit breaker, the search
 * (bounded by the timeout), the tuned minimum score, the dedup window, local demotion (memories rated
 * negative in three separate events). Each skip is counted by
 * reason. A failed or slow search never fails the call: the result goes out without memories.
 */
public final class Surfacer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Surfacer.class);
    /** memtomem-stm's write_tool_patterns: results of writes are confirmations, not context. */
    /** memtomem-stm's feedback_demotion_negative_threshold: three separate "no" votes retire a memory here. */
    static final int DEMOTE_AFTER_NEGATIVE_EVENTS = 3;
    private static final Pattern WRITE_TOOL = Pattern.compile("(?i).*(write|create|delete|push|send|remove|edit|move).*");

    private final SurfacingSettings settings;
    private final MemorySource source;
    private final SurfacingGate gate;
    private final CircuitBreaker breaker;
    private final ThresholdTuner tuner;
    private final ProxyStats stats;
    private final Supplier<String> ids;
    private final java.util.function.UnaryOperator<String> rating;
    private final ExecutorService searches = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "engram-proxy-surface");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, AtomicLong> skipped = new java.util.concurrent.ConcurrentHashMap<>();

    public Surfacer(SurfacingSettings settings, MemorySource source, Clock clock, ThresholdTuner tuner, ProxyStats stats,
                    Supplier<String> ids) {
        this(settings, source, clock, tuner, stats, ids, SurfacingFormat.PROXY_RATING);
    }

    /**
     * {@code rating}: the rating line's call for a surfacing id (a hook's memories are rated with
     * {@code engram hook feedback}, the proxy's with its tool).
     */
    public Surfacer(SurfacingSettings settings, MemorySource source, Clock clock, ThresholdTuner tuner, ProxyStats stats,
                    Supplier<String> ids, java.util.function.UnaryOperator<String> rating) {
        this.settings = settings;
        this.source = source;
        this.rating = rating;
        this.gate = new SurfacingGate(clock, settings.maxPerMinute(), settings.cooldown(), settings.dedupWindow());
        this.breaker = new CircuitBreaker(clock, settings.circuitMaxFailures(), settings.circuitReset());
        this.tuner = tuner;
        this.stats = stats;
        this.ids = ids;
        // cross-session dedup: what earlier runs surfaced inside the window stays unsurfaced
        long since = clock.millis() - settings.dedupWindow().toMillis();
        for (Map<String, Object> row : stats.surfacedSince(since)) {
            String memoryIds = (String) row.get("memory_ids");
            if (memoryIds == null || memoryIds.isEmpty()) continue;
            gate.markSurfaced(List.of(memoryIds.split(",")),
                    java.time.Instant.ofEpochMilli(((Number) row.get("at")).longValue()));
        }
    }

    /**
     * The gates that need no state, in the order {@link #surface} applies them: null when a call passes
     * them, else the reason it does not. A hook checks them before it opens anything.
     */
    public static String statelessSkip(SurfacingSettings settings, String tool, Map<String, Object> arguments, int resultChars) {
        if (!settings.enabled()) return "disabled";
        if (settings.excludedBy(tool) != null) return "excluded_tool";
        if (resultChars < settings.minResponseChars()) return "small_result";
        if (QueryExtractor.tokens(tool, arguments).size() < settings.minQueryTokens()) return "few_query_tokens";
        if (WRITE_TOOL.matcher(tool).matches()) return "write_tool";
        return null;
    }

    public Optional<Surfacing> surface(String server, String tool, Map<String, Object> arguments, int resultChars) {
        return surface(server, tool, arguments, resultChars, null);
    }

    /**
     * With {@code contextQuery} (the agent's {@code _context_query}) the search is for its words
     * instead of words taken from the arguments, and a small result no longer stops it: the agent
     * asked (memtomem-stm's gate order).
     */
    public Optional<Surfacing> surface(String server, String tool, Map<String, Object> arguments, int resultChars,
                                       String contextQuery) {
        List<String> tokens;
        // memtomem-stm matches server__tool too; the tool's own name is checked with the other stateless gates
        if (settings.enabled() && settings.excludedBy(server + "__" + tool) != null) return skip("excluded_tool");
        if (contextQuery == null) {
            String stateless = statelessSkip(settings, tool, arguments, resultChars);
            if (stateless != null) return skip(stateless);
            tokens = QueryExtractor.tokens(tool, arguments);
        } else {
            if (!settings.enabled()) return skip("disabled");
            if (settings.excludedBy(tool) != null) return skip("excluded_tool");
            tokens = QueryExtractor.tokens(tool, Map.of("q", contextQuery));
            if (tokens.size() < settings.minQueryTokens()) return skip("few_query_tokens");
            if (WRITE_TOOL.matcher(tool).matches()) return skip("write_tool");
        }
        String refused = gate.claim(tokens);
        if (refused != null) return skip(refused);
        if (!breaker.allow()) return skip("circuit_open");
        List<MemoryHit> hits;
        CompletableFuture<List<MemoryHit>> search = CompletableFuture.supplyAsync(
                () -> source.search(String.join(" ", tokens), settings.maxResults() * 3), searches);
        try {
            hits = search.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
            breaker.success();
        } catch (TimeoutException e) {
            search.cancel(true);
            breaker.failure();
            return skip("timeout");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return skip("interrupted");
        } catch (Exception e) {
            breaker.failure();
            log.debug("surfacing search failed for tool={}", tool, e);
            return skip("search_error");
        }
        double min = tuner.minScore();
        java.util.Set<String> demoted = stats.demoted(DEMOTE_AFTER_NEGATIVE_EVENTS);
        List<MemoryHit> chosen = hits.stream().filter(h -> h.score() >= min).filter(h -> !gate.seen(h.id()))
                .filter(h -> !demoted.contains(h.id()))
                .limit(settings.maxResults()).toList();
        if (chosen.isEmpty()) return skip("no_match");
        String id = ids.get();
        String block = SurfacingFormat.block(id, chosen, min, settings.maxInjectionChars(), rating);
        List<String> memoryIds = chosen.stream().map(MemoryHit::id).toList();
        gate.markSurfaced(memoryIds);
        stats.recordSurfacing(id, server, tool, memoryIds);
        return Optional.of(new Surfacing(id, block, memoryIds));
    }

    public int maxInjectionChars() {
        return settings.maxInjectionChars();
    }

    public CircuitBreaker.State breakerState() {
        return breaker.state();
    }

    /** The rate/cooldown gate, whose state a hook saves between its one-call processes. */
    public SurfacingGate gate() {
        return gate;
    }

    /** The search's breaker, whose state a hook saves between its one-call processes. */
    public CircuitBreaker breaker() {
        return breaker;
    }

    public ThresholdTuner tuner() {
        return tuner;
    }

    public Map<String, Long> skippedByReason() {
        Map<String, Long> out = new java.util.TreeMap<>();
        skipped.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Counts a call the pipeline did not surface for, for a reason outside this class (a switch in proxy.json). */
    public void countSkip(String reason) {
        skip(reason);
    }

    private Optional<Surfacing> skip(String reason) {
        skipped.computeIfAbsent(reason, k -> new AtomicLong()).incrementAndGet();
        return Optional.empty();
    }

    @Override
    public void close() {
        searches.shutdownNow();
    }
}
