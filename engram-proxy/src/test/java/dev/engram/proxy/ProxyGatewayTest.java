package dev.engram.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.SurfaceStage;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.ThresholdTuner;
import dev.engram.proxy.upstream.ExposureGate;
import dev.engram.proxy.upstream.UpstreamConnection;
import dev.engram.proxy.upstream.UpstreamSession;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway and the runtime over a fake upstream: caching policy, pass-through, the admin flag. */
class ProxyGatewayTest {
    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final AtomicInteger calls = new AtomicInteger();
    // what the memory search finds
    private volatile List<dev.engram.proxy.surfacing.MemoryHit> memories = List.of();
    private ProxyRuntime runtime;

    private static Tool tool(String name, Boolean readOnly) {
        return Tool.builder(name, Map.of("type", "object")).annotations(readOnly == null ? null
                : new ToolAnnotations(null, readOnly, !readOnly, null, null, null)).build();
    }

    private ProxyRuntime runtime(ProxySettings settings) {
        JsonText json = JsonText.standard();
        UpstreamSession session = new UpstreamSession() {
            @Override
            public List<Tool> listTools() {
                return List.of(tool("read", true), tool("write", false), tool("unannotated", null), tool("fetch", false));
            }

            @Override
            public CallToolResult call(CallToolRequest request, Duration timeout) {
                int n = calls.incrementAndGet();
                if (request.name().equals("fetch")) {
                    // a 4,000-char JSON document (passes through, and is long enough for memories)
                    String json = "{\"items\": [" + "\"entry of the deploy checklist\", ".repeat(120) + "\"end\"]}";
                    CallToolResult.Builder b = CallToolResult.builder().addTextContent(json);
                    if (Boolean.TRUE.equals(request.arguments().get("structured"))) b.structuredContent(Map.of("items", List.of("end")));
                    return b.build();
                }
                String size = String.valueOf(request.arguments().getOrDefault("size", "10"));
                return CallToolResult.builder().addTextContent(("call " + n + " ").repeat(Integer.parseInt(size)))
                        .structuredContent(Map.of("n", n)).build();
            }

            @Override
            public boolean alive() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        UpstreamConnection c = new UpstreamConnection(UpstreamConfig.of("up", "up",
                new UpstreamTransport.Stdio("x", List.of(), List.of())), cfg -> session, clock, Duration.ofSeconds(5));
        ProxyStats stats = new ProxyStats(dir, clock);
        OriginalStore originals = new OriginalStore(clock, () -> "k" + calls.get());
        Surfacer surfacer = new Surfacer(settings.surfacing(), (q, n) -> memories, clock,
                new ThresholdTuner(settings.surfacing(), stats), stats, () -> "s");
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(new Compressor(json.mapper(), originals,
                new RetentionFloor(0.65), 4000)), new SurfaceStage(surfacer)));
        ProxyRuntime r = new ProxyRuntime(List.of(c), new ExposureGate(json.mapper()), pipeline, originals,
                new ResponseCache(dir, clock), stats, surfacer, settings, json,
                new dev.engram.proxy.stats.ProposalQueue(dir, clock, () -> "p" + calls.incrementAndGet()),
                new dev.engram.proxy.upstream.ProgressRelay());
        r.connectAll();
        return r;
    }

    @BeforeEach
    void start() {
        runtime = runtime(ProxySettings.defaults());
    }

    @AfterEach
    void stop() {
        runtime.close();
    }

    private CallToolResult call(String name, Map<String, Object> args) {
        return runtime.gateway().call(runtime.exposure().find(name).orElseThrow(), args, null);
    }

    @Test
    void readOnlyToolsAreServedFromCacheOthersNever() {
        call("up__read", Map.of("q", 1));
        call("up__read", Map.of("q", 1));
        assertEquals(1, calls.get(), "second read came from the cache");
        call("up__write", Map.of("q", 1));
        call("up__write", Map.of("q", 1));
        call("up__unannotated", Map.of("q", 1));
        call("up__unannotated", Map.of("q", 1));
        assertEquals(5, calls.get(), "writes and unannotated tools always reach the upstream");
        clock.advance(Duration.ofSeconds(UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS + 1));
        call("up__read", Map.of("q", 1));
        assertEquals(6, calls.get(), "expired");
    }

    @Test
    void aSmallResultIsTheUpstreamsOwnObject() {
        CallToolResult r = call("up__write", Map.of("size", "3"));
        assertEquals(Map.of("n", 1), r.structuredContent(), "structured content kept when nothing changed");
    }

    @Test
    void aLargeResultIsOneTextBlockWithinBudget() {
        CallToolResult r = call("up__write", Map.of("size", "5000"));
        String text = ((io.modelcontextprotocol.spec.McpSchema.TextContent) r.content().get(0)).text();
        assertTrue(text.length() <= UpstreamConfig.DEFAULT_MAX_RESULT_CHARS);
        assertEquals(null, r.structuredContent());
    }

    @Test
    void memoriesUnderAJsonResultComeInAContentItemOfTheirOwn() throws Exception {
        memories = List.of(new dev.engram.proxy.surfacing.MemoryHit("m1", "warning", "The deploy checklist lives in the runbook", 5.0));
        for (boolean structured : new boolean[] {false, true}) {
            CallToolResult r = call("up__fetch", Map.of("path", "/srv/deploy/checklist/items.json", "structured", structured));
            assertEquals(2, r.content().size(), "the result, then the memories: " + r.content());
            String first = ((io.modelcontextprotocol.spec.McpSchema.TextContent) r.content().get(0)).text();
            JsonText.standard().mapper().readValue(first, Object.class); // still JSON: it parses
            String second = ((io.modelcontextprotocol.spec.McpSchema.TextContent) r.content().get(1)).text();
            assertTrue(second.startsWith("<surfaced-memories") && second.contains("deploy checklist"), second);
            if (structured) assertEquals(Map.of("items", List.of("end")), r.structuredContent(), "structured content kept");
            memories = List.of(new dev.engram.proxy.surfacing.MemoryHit("m2", "warning", "Deploys need the deploy checklist signed", 5.0));
            clock.advance(Duration.ofSeconds(10)); // past the surfacing cooldown
        }
    }

    @Test
    void adminAndProposeAreListedOnlyWhenTheirFlagsAreOn() {
        assertTrue(runtime.ownTools().stream().noneMatch(t -> t.definition().name().equals("stm_admin")));
        ProxySettings d = ProxySettings.defaults();
        assertTrue(runtime.ownTools().stream().noneMatch(t -> t.definition().name().equals("stm_memory_propose")));
        try (ProxyRuntime withAdmin = runtime(new ProxySettings(true, false, d.retentionFloor(), d.connectTimeout(),
                d.callTimeout(), d.surfacing(), d.maxDescriptionChars(), d.resultBudget()))) {
            assertTrue(withAdmin.ownTools().stream().anyMatch(t -> t.definition().name().equals("stm_admin")));
            assertTrue(withAdmin.ownTools().stream().noneMatch(t -> t.definition().name().equals("stm_memory_propose")));
        }
        try (ProxyRuntime withFormation = runtime(new ProxySettings(false, true, d.retentionFloor(), d.connectTimeout(),
                d.callTimeout(), d.surfacing(), d.maxDescriptionChars(), d.resultBudget()))) {
            assertTrue(withFormation.ownTools().stream().anyMatch(t -> t.definition().name().equals("stm_memory_propose")));
        }
    }
}
