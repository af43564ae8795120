package dev.engram.proxy.tools;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.stats.Report;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One tool for the operator's eight observability actions (one slot in the agent's tool list
 * instead of eight). Registered only when {@code ENGRAM_PROXY_ADVERTISE_ADMIN=true}.
 */
public final class AdminTool implements ToolHandler {
    /** Action name → what its params mean, for {@code help}. */
    public static final Map<String, String> ACTIONS = actions();

    private final Map<String, Function<Map<String, Object>, Report>> handlers;

    public AdminTool(Map<String, Function<Map<String, Object>, Report>> handlers) {
        this.handlers = Map.copyOf(handlers);
    }

    private static Map<String, String> actions() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("help", "lists the actions and their params");
        a.put("proxy_stats", "token savings, cache hits and misses, per-tool history, latency p50/p95/p99");
        a.put("proxy_health", "per upstream: connected, discovered vs exposed tools, hidden reasons; breaker state");
        a.put("proxy_cache_clear", "params {server?, tool?}: clears the response cache (all of it without params)");
        a.put("surfacing_stats", "surfacing events, ratings, helpfulness, skipped reasons, current threshold");
        a.put("selection_stats", "stm_proxy_select_chunks use by tool");
        a.put("compression_stats", "params {tool?}: compression feedback by tool and kind");
        a.put("progressive_stats", "params {tool?}: stm_proxy_read_more follow-ups by tool");
        a.put("tuning_recommendations", "budget and strategy advice from follow-ups and feedback; the surfacing threshold");
        return java.util.Collections.unmodifiableMap(a);
    }

    @Override
    public Tool definition() {
        return Tool.builder(ProxyToolNames.ADMIN, JsonSchema.input()
                        .choice("action", "What to do; 'help' lists the params of each", List.copyOf(ACTIONS.keySet()))
                        .property("params", new LinkedHashMap<>(Map.of("type", "object",
                                "description", "Arguments of the action, e.g. {\"tool\": \"read_text_file\"}")))
                        .required("action").build())
                .description("Proxy observability and maintenance: " + String.join(", ", ACTIONS.keySet()) + ".")
                .annotations(ToolHints.writes(true)).build();
    }

    @Override
    public ToolReply call(ToolArgs args) {
        String action = args.text("action");
        Map<String, Object> params = args.object("params");
        if (action.equals("help")) {
            StringBuilder sb = new StringBuilder("stm_admin actions:\n");
            ACTIONS.forEach((k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
            return new ToolReply(sb.toString(), Map.of("actions", ACTIONS));
        }
        Function<Map<String, Object>, Report> handler = handlers.get(action);
        if (handler == null) {
            throw new InvalidArgumentException("action", "must be one of " + ACTIONS.keySet() + ", got '" + action + "'");
        }
        Report r = handler.apply(params);
        return new ToolReply(r.text(), r.data());
    }
}
