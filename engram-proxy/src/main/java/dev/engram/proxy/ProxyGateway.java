package dev.engram.proxy;

import dev.engram.proxy.cache.CacheKey;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.PipelineText;
import dev.engram.proxy.pipeline.ProxiedCall;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.upstream.ExposedTool;
import dev.engram.proxy.upstream.UpstreamConnection;
import dev.engram.proxy.upstream.UpstreamException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One proxied call, start to end: cache lookup (read-only tools only), the upstream call, the
 * pipeline, the stats row. What the agent gets: the upstream's result object itself when the
 * pipeline changed nothing (byte-identical, structured content included), else one text block.
 * Errors and non-text results pass through unprocessed. Thread-safe.
 */
public final class ProxyGateway {
    private final java.util.function.Function<String, UpstreamConnection> upstreams;
    private final Pipeline pipeline;
    private final ResponseCache cache;
    private final ProxyStats stats;
    private final McpJsonMapper mapper;
    private final ResultBudget resultBudget;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();

    public ProxyGateway(Map<String, UpstreamConnection> upstreams, Pipeline pipeline, ResponseCache cache, ProxyStats stats,
                        McpJsonMapper mapper, ResultBudget resultBudget) {
        this(Map.copyOf(upstreams)::get, pipeline, cache, stats, mapper, resultBudget);
    }

    /** {@code upstreams} finds an upstream's connection by name at call time (a reload may replace it; null: gone). */
    public ProxyGateway(java.util.function.Function<String, UpstreamConnection> upstreams, Pipeline pipeline, ResponseCache cache,
                        ProxyStats stats, McpJsonMapper mapper, ResultBudget resultBudget) {
        this.upstreams = upstreams;
        this.pipeline = pipeline;
        this.cache = cache;
        this.stats = stats;
        this.mapper = mapper;
        this.resultBudget = resultBudget;
    }

    /** Proxied calls running now (shutdown waits for them). */
    public int inFlight() {
        return inFlight.get();
    }

    public CallToolResult call(ExposedTool tool, Map<String, Object> arguments, Map<String, Object> meta) {
        return call(tool, arguments, meta, null);
    }

    /** As above; {@code cancelled} (may be null) completes when the agent cancels the call. */
    public CallToolResult call(ExposedTool tool, Map<String, Object> arguments, Map<String, Object> meta,
                               java.util.concurrent.CompletableFuture<String> cancelled) {
        inFlight.incrementAndGet();
        try {
            return callCounted(tool, arguments, meta, cancelled);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private CallToolResult callCounted(ExposedTool tool, Map<String, Object> arguments, Map<String, Object> meta,
                                       java.util.concurrent.CompletableFuture<String> cancelled) {
        long started = System.nanoTime();
        UpstreamConnection upstream = upstreams.apply(tool.server());
        if (upstream == null) {
            return CallToolResult.builder().addTextContent("upstream '" + tool.server() + "' was removed from proxy.json; "
                    + tool.name() + " is gone (list the tools again)").isError(true).build();
        }
        String contextQuery = null;
        if (arguments != null && arguments.containsKey(ExposedTool.CONTEXT_QUERY) && !tool.upstreamDeclares(ExposedTool.CONTEXT_QUERY)) {
            // the proxy's own argument: it never reaches the upstream, whose schema does not know it
            Object q = arguments.get(ExposedTool.CONTEXT_QUERY);
            if (q != null && !(q instanceof String)) {
                return CallToolResult.builder().addTextContent(ExposedTool.CONTEXT_QUERY + " must be a string (what you are"
                        + " looking for, in a few words), got " + q.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT))
                        .isError(true).build();
            }
            contextQuery = q == null || ((String) q).isBlank() ? null : ((String) q).strip();
            arguments = new java.util.LinkedHashMap<>(arguments);
            arguments.remove(ExposedTool.CONTEXT_QUERY);
        }
        ProxiedCall call = new ProxiedCall(upstream.config(), tool.upstream().name(), tool.name(), arguments, resultBudget,
                contextQuery);
        int ttl = upstream.config().cacheTtlSecondsFor(call.tool());
        boolean cacheable = tool.readOnly() && ttl > 0;
        CacheKey key = cacheable ? CacheKey.of(call.server(), call.tool(), call.arguments(), mapper) : null;
        Optional<String> hit = cacheable ? cache.get(key) : Optional.empty();
        CallToolResult result = null;
        String raw;
        if (hit.isPresent()) {
            raw = hit.get();
        } else {
            try {
                result = upstream.call(call.tool(), call.arguments(), meta, cancelled);
            } catch (UpstreamException e) {
                record(call, e.kind() == UpstreamException.Kind.CANCELLED ? "cancelled" : "upstream_error", 0, 0, started, false, true);
                return CallToolResult.builder().addTextContent(e.getMessage()).isError(true).build();
            }
            if (Boolean.TRUE.equals(result.isError()) || !textOnly(result.content())) {
                record(call, Boolean.TRUE.equals(result.isError()) ? "error" : "non_text", 0, 0, started, false,
                        Boolean.TRUE.equals(result.isError()));
                return result;
            }
            raw = text(result.content());
            if (cacheable) cache.put(key, raw, Duration.ofSeconds(ttl));
        }
        PipelineText out = pipeline.run(call, raw);
        record(call, out.path().isEmpty() ? "none" : out.path(), raw.length(), out.text().length(), started, hit.isPresent(), false);
        if (out.untouched() && result != null) return result;
        String view = out.view();
        if (out.memories() != null && (result != null && result.structuredContent() != null || isJson(view))) {
            // memories appended to JSON would make it unparseable, and a text item beside structuredContent is
            // meant to be its serialized JSON: the memories get a content item of their own
            CallToolResult base = view.equals(raw) && result != null ? result
                    : CallToolResult.builder().addTextContent(view).isError(false).build();
            List<Content> content = new java.util.ArrayList<>(base.content());
            content.add(new TextContent(out.memories().stripLeading()));
            return new CallToolResult(content, base.isError(), base.structuredContent(), base.meta());
        }
        return CallToolResult.builder().addTextContent(out.text()).isError(false).build();
    }

    /** Whether {@code text} is one JSON object or array (what a script would parse). */
    private boolean isJson(String text) {
        String t = text.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) return false;
        try {
            mapper.readValue(t, Object.class);
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private void record(ProxiedCall call, String path, int in, int out, long started, boolean cached, boolean error) {
        long ms = (System.nanoTime() - started) / 1_000_000;
        stats.recordCall(new ProxyStats.CallRecord(call.server(), call.tool(), path, in, out, ms, cached, error));
    }

    private static boolean textOnly(List<Content> content) {
        return content != null && !content.isEmpty() && content.stream().allMatch(c -> c instanceof TextContent);
    }

    private static String text(List<Content> content) {
        if (content.size() == 1) return ((TextContent) content.get(0)).text();
        StringBuilder sb = new StringBuilder();
        for (Content c : content) {
            if (sb.length() > 0) sb.append("\n\n");
            sb.append(((TextContent) c).text());
        }
        return sb.toString();
    }
}
