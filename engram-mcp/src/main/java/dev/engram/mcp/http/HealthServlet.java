package dev.engram.mcp.http;

import dev.engram.access.Grants;
import dev.engram.access.Right;
import dev.engram.mcp.server.CallerRights;
import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: {@code {"status":"ok"}} (200) or {@code {"status":"degraded"}} (503, the store
 * does not answer), for load balancers, without a token. A token with the read right on every zone (an
 * operator's: ENGRAM_TOKENS, or {@code engram tokens add --all-zones read}) also gets the details: store,
 * index lag, memory count, embedder. Narrower tokens get the short answer: store-wide numbers are not theirs.
 */
final class HealthServlet extends HttpServlet {
    static final String PATH = "/health";

    private final ServerStatus.Probe probe;
    private final RedisLink redis;
    private final McpJsonMapper mapper;
    private final boolean open;

    HealthServlet(ServerStatus.Probe probe, RedisLink redis, McpJsonMapper mapper, boolean open) {
        this.probe = probe;
        this.redis = redis;
        this.mapper = mapper;
        this.open = open;
    }

    /** Whether this request may see store-wide numbers. */
    static boolean operator(HttpServletRequest req, boolean open) {
        Object g = req.getAttribute(CallerRights.KEY);
        return g instanceof Grants grants ? grants.everywhere(Right.READ) : open;
    }

    /**
     * {@code off} without Redis, else {@code up} or {@code down} with the reason (asked now). Redis is optional:
     * a Redis that is down leaves the status {@code ok}, since every request is still answered.
     */
    static Map<String, Object> redisState(RedisLink redis) {
        Map<String, Object> state = new LinkedHashMap<>();
        if (redis == null) {
            state.put("state", "off");
            return state;
        }
        String problem = redis.probe();
        state.put("state", problem == null ? "up" : "down");
        state.put("url", redis.shown());
        if (problem != null) state.put("problem", problem);
        return state;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        ServerStatus s = probe.probe();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", s.healthy() ? "ok" : "degraded");
        if (operator(req, open)) {
            Map<String, Object> store = new LinkedHashMap<>();
            store.put("reachable", s.healthy());
            if (!s.healthy()) store.put("problem", s.storeProblem());
            if (s.memories() >= 0) store.put("memories", s.memories());
            body.put("store", store);
            body.put("index", Map.of("lag", s.indexLag()));
            Map<String, Object> embedder = new LinkedHashMap<>();
            embedder.put("state", s.embedder());
            if (s.model() != null) embedder.put("model", s.model());
            body.put("embedder", embedder);
            body.put("redis", redisState(redis));
        }
        byte[] bytes = mapper.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        res.setStatus(s.healthy() ? 200 : 503);
        res.setContentType("application/json");
        res.setHeader("Cache-Control", "no-store");
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
    }
}
