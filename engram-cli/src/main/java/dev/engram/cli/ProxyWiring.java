package dev.engram.cli;

import dev.engram.engine.Engine;
import dev.engram.llm.OpenAiChatClient;
import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.ProxyRuntime;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.LlmSummary;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.config.CompressionSettings;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.SurfaceStage;
import dev.engram.proxy.stats.ProposalQueue;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.CircuitBreaker;
import dev.engram.proxy.surfacing.EngineMemorySource;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.SurfacingSwitch;
import dev.engram.proxy.surfacing.ThresholdTuner;
import dev.engram.proxy.upstream.ExposureGate;
import dev.engram.proxy.upstream.McpSessionOpener;
import dev.engram.proxy.upstream.ProgressRelay;
import dev.engram.proxy.upstream.UpstreamConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The proxy's part of the composition root: Main delegates here so Main stays readable. */
final class ProxyWiring {
    private ProxyWiring() {
    }

    static ProxyRuntime runtime(EngramConfig config, ProxySettings settings, Map<String, String> env, JsonText json,
                                String version, Clock clock, Supplier<Engine> engine) {
        try {
            Files.createDirectories(config.storeDir());
        } catch (IOException e) {
            throw new ConfigException("store", config.storeDir().toString(), "cannot be created: " + e.getMessage());
        }
        ProxyConfigFile configFile = new ProxyConfigFile(config.storeDir(), json.mapper());
        ProxyConfig proxyConfig = configFile.load();
        ProgressRelay progress = new ProgressRelay();
        McpSessionOpener opener = new McpSessionOpener(json.mapper(), env, version, settings.connectTimeout(),
                settings.callTimeout(), progress);
        List<UpstreamConnection> upstreams = proxyConfig.upstreams().stream()
                .map(u -> new UpstreamConnection(u, opener, clock, settings.callTimeout())).toList();
        SecureRandom random = new SecureRandom();
        Supplier<String> ids = () -> {
            byte[] b = new byte[6];
            random.nextBytes(b);
            return HexFormat.of().formatHex(b);
        };
        ProxyStats stats = new ProxyStats(config.storeDir(), clock);
        ResponseCache cache = new ResponseCache(config.storeDir(), clock);
        OriginalStore originals = new OriginalStore(clock, ids);
        CompressionSettings compression = CompressionSettings.fromEnv(env);
        LlmSummary llm = null;
        try {
            llm = compression.llm().endpoint(env)
                    .map(c -> new LlmSummary(new OpenAiChatClient(c, json), compression.llm(), new CircuitBreaker(clock,
                            compression.llm().circuitMaxFailures(), compression.llm().circuitReset())))
                    .orElse(null);
        } catch (RuntimeException e) {
            // a typo in an optional endpoint must not stop the proxy: llm_summary falls back, and says so
            org.slf4j.LoggerFactory.getLogger(ProxyWiring.class).warn("no model for llm_summary: {}", e.getMessage());
        }
        Compressor compressor = new Compressor(json.mapper(), originals, new RetentionFloor(settings.retentionFloor()),
                ProgressiveChunks.DEFAULT_CHUNK_CHARS, compression.toc(), llm);
        String zone = settings.surfacing().zone() != null ? settings.surfacing().zone() : config.defaultZone();
        Surfacer surfacer = new Surfacer(settings.surfacing(), new EngineMemorySource(engine, zone), clock,
                new ThresholdTuner(settings.surfacing(), stats), stats, ids);
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(compressor), new SurfaceStage(surfacer,
                new SurfacingSwitch(configFile.path(), configFile::load, proxyConfig, clock))));
        return new ProxyRuntime(upstreams, proxyConfig, u -> new UpstreamConnection(u, opener, clock, settings.callTimeout()),
                new ExposureGate(json.mapper(), settings.maxDescriptionChars()), pipeline, originals, cache, stats, surfacer,
                settings, json, new ProposalQueue(config.storeDir(), clock, ids), progress);
    }
}
