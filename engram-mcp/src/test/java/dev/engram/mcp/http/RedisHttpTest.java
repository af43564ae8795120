package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.access.Access;
import dev.engram.access.Principals;
import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two replicas with one Redis over the real HTTP server: one limit per token, and nothing refused when Redis goes. */
class RedisHttpTest {
    private static final String OPS = "ops-token-0123456789abcdef";
    private static final String OTHER = "other-token-0123456789abcdef";
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine raw = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
    private final List<McpHttpServer> replicas = new ArrayList<>();
    private PrivateRedis redis;
    private RedisLink link;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(PrivateRedis.available(), "redis-server is not installed here");
        redis = PrivateRedis.start();
        link = RedisLink.connect(redis.url(), "engram-http-test:");
        Engine guarded = raw.guarded(Access::current);
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(OPS, OTHER)), false,
                List.of(), List.of(), true).withLimits(ServerLimits.DEFAULT.withRate(0.001, 3)); // one token per 1000 s
        for (int i = 0; i < 2; i++) {
            replicas.add(McpHttpServer.builder(settings, NativeProfile.create(new ProfileContext(() -> guarded, "team"),
                    JsonText.standard()), "test", McpJsonDefaults.getMapper()).principals(new Principals(store)).redis(link).start());
        }
    }

    @AfterEach
    void stop() throws Exception {
        replicas.forEach(McpHttpServer::close);
        if (link != null) link.close();
        if (redis != null) redis.close();
    }

    private int initialize(int replica) throws Exception {
        return RawHttp.send(replicas.get(replica).port(), "POST", "/mcp", Map.of("Authorization", "Bearer " + OPS,
                "Accept", "application/json, text/event-stream", "Content-Type", "application/json"), RawHttp.INITIALIZE).status();
    }

    private RawHttp.Response get(int replica, String path) throws Exception {
        return RawHttp.send(replicas.get(replica).port(), "GET", path, Map.of("Authorization", "Bearer " + OPS), null);
    }

    @Test
    void aTokensLimitHoldsAcrossReplicasAndRedisGoingAwayRefusesNothingButLoosensIt() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 6; i++) statuses.add(initialize(i % 2));
        assertEquals(List.of(200, 200, 200, 429, 429, 429), statuses, "one burst of 3 for both replicas together");
        RawHttp.Response health = get(0, "/health");
        assertTrue(health.body().contains("\"redis\":{\"state\":\"up\",\"url\":\"" + redis.url() + "\"}"), health.body());

        redis.kill();
        statuses.clear();
        for (int i = 0; i < 6; i++) statuses.add(initialize(i % 2));
        assertEquals(List.of(200, 200, 200, 200, 200, 200), statuses,
                "without Redis each replica's own bucket (3 each) decides: no error, no 5xx");
        health = get(1, "/health");
        assertEquals(200, health.status(), "Redis is optional: the server is healthy without it");
        assertTrue(health.body().contains("\"status\":\"ok\"") && health.body().contains("\"redis\":{\"state\":\"down\""), health.body());
        RawHttp.Response metrics = RawHttp.send(replicas.get(1).port(), "GET", "/metrics",
                Map.of("Authorization", "Bearer " + OTHER), null); // OPS has used its bucket: /metrics is limited too
        assertTrue(metrics.body().contains("engram_redis_up 0\n"), metrics.body());
        assertTrue(metrics.body().contains("engram_redis_failures_total "), metrics.body());
    }
}
