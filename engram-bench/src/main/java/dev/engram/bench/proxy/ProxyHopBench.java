package dev.engram.bench.proxy;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.upstream.McpSessionOpener;
import dev.engram.proxy.upstream.UpstreamSession;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the proxy hop adds to a small (pass-through) call: the same read_text_file, made by the same
 * Java SDK client, directly against server-filesystem and through {@code engram proxy} in front of
 * it, alternating call by call so machine load hits both alike.
 * <pre>java -cp … dev.engram.bench.proxy.ProxyHopBench ENGRAM_JAR FILESYSTEM_INDEX_JS [calls]</pre>
 */
public final class ProxyHopBench {
    private ProxyHopBench() {
    }

    public static void main(String[] args) throws Exception {
        String jar = Path.of(args[0]).toAbsolutePath().toString();
        String fsServer = Path.of(args[1]).toAbsolutePath().toString();
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        Path dir = Files.createTempDirectory("engram-hop-");
        Path data = Files.createDirectories(dir.resolve("data"));
        Path file = data.resolve("small.txt");
        Files.writeString(file, "a small file that passes through the proxy untouched\n".repeat(20));
        // cache off: every proxied call must travel to the upstream, or the hop would look free
        UpstreamConfig direct = new UpstreamConfig("filesystem", "fs",
                new UpstreamTransport.Stdio("node", List.of(fsServer, data.toString()), List.of()), null,
                UpstreamConfig.DEFAULT_MAX_RESULT_CHARS, 0);
        Path store = dir.resolve("store");
        new ProxyConfigFile(store, McpJsonDefaults.getMapper()).save(ProxyConfig.empty().with(direct));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        UpstreamConfig proxied = UpstreamConfig.of("proxy", "px", new UpstreamTransport.Stdio(java,
                List.of("-XX:+UseSerialGC", "-jar", jar, "--store", store.toString(), "proxy"), List.of()));
        try (McpSessionOpener opener = new McpSessionOpener(McpJsonDefaults.getMapper(), System.getenv(), "bench",
                Duration.ofSeconds(60), Duration.ofSeconds(30), new dev.engram.proxy.upstream.ProgressRelay());
             UpstreamSession a = opener.open(direct);
             UpstreamSession b = opener.open(proxied)) {
            CallToolRequest toDirect = CallToolRequest.builder("read_text_file").arguments(Map.of("path", file.toString())).build();
            CallToolRequest toProxy = CallToolRequest.builder("fs__read_text_file").arguments(Map.of("path", file.toString())).build();
            for (int i = 0; i < 50; i++) { // warm-up: JIT and Node's first calls
                a.call(toDirect, Duration.ofSeconds(30));
                b.call(toProxy, Duration.ofSeconds(30));
            }
            long[] da = new long[calls];
            long[] db = new long[calls];
            for (int i = 0; i < calls; i++) {
                long t = System.nanoTime();
                a.call(toDirect, Duration.ofSeconds(30));
                da[i] = System.nanoTime() - t;
                t = System.nanoTime();
                b.call(toProxy, Duration.ofSeconds(30));
                db[i] = System.nanoTime() - t;
            }
            Arrays.sort(da);
            Arrays.sort(db);
            System.out.printf("| path | p50 ms | p95 ms |%n|---|---:|---:|%n| direct | %.2f | %.2f |%n| through engram proxy | %.2f | %.2f |%n",
                    ms(da, 0.5), ms(da, 0.95), ms(db, 0.5), ms(db, 0.95));
            System.out.printf("Hop adds %.2f ms at p50 (%d calls each, alternating).%n", ms(db, 0.5) - ms(da, 0.5), calls);
        }
    }

    private static double ms(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))] / 1e6;
    }
}
