package dev.engram.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the Node end-to-end scripts in {@code e2e/} against the freshly built {@code target/engram.jar}:
 * an independent MCP client (the TypeScript SDK) over stdio and HTTP, multi-process and crash tests,
 * and the official conformance suite. Output streams into the Maven log; a failure carries its tail.
 */
class NodeEndToEndIT {
    /** Each script is designed to finish well within this; a hung one is killed with its children. */
    private static final long SCRIPT_TIMEOUT_SECONDS = 180;
    private static final int TAIL_LINES = 80;

    private static Path e2eDir;
    private static Path jar;

    @BeforeAll
    static void locate() {
        e2eDir = Path.of(System.getProperty("engram.e2e.dir", "../e2e")).toAbsolutePath().normalize();
        jar = Path.of(System.getProperty("engram.jar", "target/engram.jar")).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(jar), "runnable jar not found at " + jar + ": run the package phase first");
        if (!Files.isDirectory(e2eDir.resolve("node_modules/@modelcontextprotocol/sdk"))
                || !Files.isDirectory(e2eDir.resolve("node_modules/@modelcontextprotocol/conformance"))
                || !Files.isDirectory(e2eDir.resolve("node_modules/@modelcontextprotocol/server-memory"))) {
            fail("e2e/node_modules is missing or incomplete: run 'npm ci --prefix e2e' first (in " + e2eDir.getParent() + ")");
        }
    }

    @Test
    void stdio() throws Exception {
        nodeTest("stdio.test.mjs");
    }

    @Test
    void rawLines() throws Exception {
        nodeTest("raw.test.mjs");
    }

    @Test
    void http() throws Exception {
        nodeTest("http.test.mjs");
    }

    @Test
    void concurrency() throws Exception {
        nodeTest("concurrency.test.mjs");
    }

    @Test
    void crash() throws Exception {
        nodeTest("crash.test.mjs");
    }

    @Test
    void cli() throws Exception {
        nodeTest("cli.test.mjs");
    }

    @Test
    void init() throws Exception {
        nodeTest("init.test.mjs");
    }

    /** SQLite's and ONNX Runtime's libraries load from the data folder; a session leaves nothing in the temp dir. */
    @Test
    void nativeLibraries() throws Exception {
        nodeTest("native.test.mjs");
    }

    @Test
    void hookDaemon() throws Exception {
        nodeTest("hookd.test.mjs");
    }

    @Test
    void proxy() throws Exception {
        nodeTest("proxy.test.mjs");
    }

    @Test
    void proxySse() throws Exception {
        nodeTest("proxy-sse.test.mjs");
    }

    @Test
    void proxyLive() throws Exception {
        nodeTest("proxy-live.test.mjs");
    }

    @Test
    void serverMemory() throws Exception {
        nodeTest("server-memory.test.mjs");
    }

    @Test
    void brain() throws Exception {
        nodeTest("brain.test.mjs");
    }

    @Test
    void toon() throws Exception {
        nodeTest("toon.test.mjs");
    }

    @Test
    void toonSessions() throws Exception {
        nodeTest("toon-sessions.test.mjs");
    }

    @Test
    void memento() throws Exception {
        nodeTest("memento.test.mjs");
    }

    /** Headless Chromium against `engram viewer` and `serve`'s /ui; skips (saying why) where chromium is missing. */
    @Test
    void viewer() throws Exception {
        nodeTest("viewer.test.mjs");
    }

    /** A 10,000-memory zone opens within the viewer's node limit, in headless Chromium. */
    @Test
    void viewer10k() throws Exception {
        nodeTest("viewer-10k.test.mjs");
    }

    @Test
    void tenants() throws Exception {
        nodeTest("tenants.test.mjs");
    }

    @Test
    void replicas() throws Exception {
        // twelve JVM starts on PostgreSQL (two replicas, one per profile, three kills and restarts): more than the others
        nodeTest("replicas.test.mjs", 480);
    }

    @Test
    void conformance() throws Exception {
        run("run-conformance.sh", List.of("bash", e2eDir.resolve("run-conformance.sh").toString()));
    }

    private void nodeTest(String script) throws Exception {
        nodeTest(script, SCRIPT_TIMEOUT_SECONDS);
    }

    private void nodeTest(String script, long timeoutSeconds) throws Exception {
        String node = System.getenv().getOrDefault("ENGRAM_E2E_NODE", "node");
        run(script, List.of(node, "--test", "--test-reporter=spec", script), timeoutSeconds);
    }

    private void run(String name, List<String> command) throws Exception {
        run(name, command, SCRIPT_TIMEOUT_SECONDS);
    }

    private void run(String name, List<String> command, long timeoutSeconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(e2eDir.toFile()).redirectErrorStream(true);
        pb.environment().put("ENGRAM_JAR", jar.toString());
        pb.environment().put("ENGRAM_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        System.out.println("[e2e] " + name + ": " + String.join(" ", command));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new AssertionError("could not start '" + command.get(0) + "' (is Node.js on the PATH?): " + e.getMessage(), e);
        }
        Deque<String> tail = new ArrayDeque<>();
        Thread pump = new Thread(() -> pump(p, name, tail), "e2e-" + name);
        pump.setDaemon(true);
        pump.start();
        boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            killTree(p);
        }
        pump.join(5_000);
        if (!finished) {
            fail(name + " did not finish within " + timeoutSeconds + " s and was killed; last output:\n" + joined(tail));
        }
        if (p.exitValue() != 0) {
            fail(name + " failed (exit " + p.exitValue() + "); last output:\n" + joined(tail));
        }
    }

    private static void pump(Process p, String name, Deque<String> tail) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                System.out.println("[" + name + "] " + line);
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            System.out.println("[" + name + "] (output closed: " + e.getMessage() + ")");
        }
    }

    /** The node runner starts a child per file, which starts JVMs: kill the whole tree, leaves first. */
    private static void killTree(Process p) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).destroyForcibly();
        }
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    private static String joined(Deque<String> tail) {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }
}
