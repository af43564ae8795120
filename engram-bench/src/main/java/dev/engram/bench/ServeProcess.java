package dev.engram.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code engram serve} as the HTTP benchmarks start it: its own JVM on a free port, one bearer token, no maintenance,
 * its own home folder, and the endpoint read from its "serving MCP" line (the rest of stderr drained, or shown).
 */
final class ServeProcess {
    private static final Pattern SERVING = Pattern.compile("serving MCP .* at (http://\\S+/mcp)");

    private ServeProcess() {
    }

    /**
     * Starts it. The rate limit is off (every client shares the one token) unless {@code ENGRAM_RATE_LIMIT} is set in
     * the bench's environment, which keeps it on (with {@code ENGRAM_REDIS}, shared through Redis) to measure its cost.
     */
    static Process start(Path jar, String store, Path home, List<String> javaOptions, String embedder, String token)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(javaOptions);
        cmd.addAll(List.of("-jar", jar.toString(), "serve", "--store", store, "--port", "0"));
        if (System.getenv("ENGRAM_RATE_LIMIT") == null) cmd.addAll(List.of("--rate-limit", "off"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ENGRAM_TOKENS", token);
        pb.environment().put("ENGRAM_EMBEDDER", embedder);
        pb.environment().put("ENGRAM_MAINTENANCE_INTERVAL", "off");
        pb.environment().put("ENGRAM_HOME", home.toString());
        pb.environment().remove("ENGRAM_STORE");
        return pb.start();
    }

    /** The endpoint once the server listens; its other stderr lines go to {@code serverErr} (null: dropped). */
    static String awaitUrl(Process server, PrintStream serverErr, String threadName) throws Exception {
        BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = err.readLine()) != null; ) {
                    Matcher m = SERVING.matcher(line);
                    if (!url.isDone() && m.find()) url.complete(m.group(1));
                    else if (serverErr != null) serverErr.println("[serve] " + line);
                }
            } catch (IOException ignored) {
                // the server ended (a kill, when a benchmark meant it)
            }
            url.completeExceptionally(new IllegalStateException("engram serve ended before it listened"));
        }, threadName);
        drain.setDaemon(true);
        drain.start();
        return url.get(120, TimeUnit.SECONDS);
    }
}
