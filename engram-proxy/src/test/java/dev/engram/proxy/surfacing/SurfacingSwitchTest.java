package dev.engram.proxy.surfacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.MutableClock;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.PipelineText;
import dev.engram.proxy.pipeline.ProxiedCall;
import dev.engram.proxy.pipeline.SurfaceStage;
import dev.engram.proxy.stats.ProxyStats;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** proxy.json's surfacing switches, honoured by a running pipeline on the next call (within a second). */
class SurfacingSwitchTest {
    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private ProxyStats stats;
    private Surfacer surfacer;
    private ProxyConfigFile file;
    private int queries;

    private final UpstreamConfig fs = UpstreamConfig.of("fs", "fs", new UpstreamTransport.Stdio("npx", List.of(), List.of()));
    private final UpstreamConfig gh = UpstreamConfig.of("gh", "gh", new UpstreamTransport.Stdio("npx", List.of(), List.of()));

    @BeforeEach
    void open() {
        SurfacingSettings settings = SurfacingSettings.defaults().withEnabled(true);
        stats = new ProxyStats(dir, clock);
        // a new memory each search, so the 7-day dedup never hides the next call's
        surfacer = new Surfacer(settings, (q, n) -> List.of(new MemoryHit("m_" + ++queries, "auth-notes", "OAuth uses PKCE", 2.0)),
                clock, new ThresholdTuner(settings, stats), stats, () -> "sid" + queries);
        file = new ProxyConfigFile(dir, McpJsonDefaults.getMapper());
    }

    @AfterEach
    void close() {
        surfacer.close();
        stats.close();
    }

    private boolean surfaced(SurfaceStage stage, UpstreamConfig server, String path) {
        clock.advance(Duration.ofSeconds(10)); // past the cooldown
        ProxiedCall call = new ProxiedCall(server, "read_text_file", server.prefix() + "__read_text_file", Map.of("path", path),
                ResultBudget.DEFAULT);
        return stage.apply(PipelineText.of("x".repeat(6000)), call).surfacingId() != null;
    }

    /** Saves and moves the modification time on, as a later write would (file times can be coarse). */
    private void save(ProxyConfig config, int second) throws Exception {
        file.save(config);
        Files.setLastModifiedTime(file.path(), FileTime.from(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(second)));
    }

    @Test
    void switchesInTheFileAreFollowedWhileRunningAndABadEditKeepsTheLastGoodOnes() throws Exception {
        ProxyConfig config = ProxyConfig.empty().with(fs).with(gh);
        save(config, 1);
        SurfaceStage stage = new SurfaceStage(surfacer, new SurfacingSwitch(file.path(), file::load, file.load(), clock));
        assertTrue(surfaced(stage, fs, "src/auth/jwt_handler.py"));

        save(config.replacing(fs.withSurfacing(false)), 2); // engram proxy surfacing off --server fs
        assertFalse(surfaced(stage, fs, "src/auth/token_store.py"));
        assertTrue(surfaced(stage, gh, "src/auth/session_keys.py"), "the other upstream keeps surfacing");

        save(config.withSurfacing(false), 3); // engram proxy surfacing off
        assertFalse(surfaced(stage, gh, "src/auth/login_flow.py"));

        Files.writeString(file.path(), "{\"upstreams\": [");
        Files.setLastModifiedTime(file.path(), FileTime.from(Instant.parse("2026-01-01T00:00:04Z")));
        assertFalse(surfaced(stage, gh, "src/auth/refresh_tokens.py"), "a half-written file changes nothing");

        save(config, 5);
        assertTrue(surfaced(stage, fs, "src/auth/password_reset.py"));
        assertEquals(Map.of("off", 2L, "off_for_server", 1L), Map.of("off", surfacer.skippedByReason().get("off"),
                "off_for_server", surfacer.skippedByReason().get("off_for_server")));
    }

    @Test
    void theSwitchesRoundTripThroughProxyJson() throws Exception {
        save(ProxyConfig.empty().with(fs.withSurfacing(false)).with(gh).withSurfacing(false), 1);
        String json = Files.readString(file.path());
        assertTrue(json.startsWith("{\"surfacing_enabled\":false,"), json);
        ProxyConfig back = file.load();
        assertFalse(back.surfacingEnabled());
        assertFalse(back.find("fs").orElseThrow().surfacing());
        assertTrue(back.find("gh").orElseThrow().surfacing());
        assertFalse(json.contains("\"name\":\"gh\",\"prefix\":\"gh\",\"transport\":\"stdio\",\"command\":\"npx\",\"args\":[],\"env\":[],"
                + "\"compression\":\"auto\",\"max_result_chars\":8000,\"cache_ttl_seconds\":3600,\"surfacing"), "on is the default: not written");
    }
}
