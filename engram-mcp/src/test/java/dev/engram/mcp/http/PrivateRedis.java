package dev.engram.mcp.http;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of the test's own on a free port, so a test can stop and restart it (the machine's shared Redis
 * must not be disturbed). Nothing on disk: no snapshots, no append-only file.
 */
final class PrivateRedis implements AutoCloseable {
    private final int port;
    private final Path dir;
    private Process process;

    private PrivateRedis(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /** Whether redis-server is on the PATH (it is wherever CI runs: .ci/run starts the shared one). */
    static boolean available() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(p, "redis-server"))) return true;
        }
        return false;
    }

    static PrivateRedis start() throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PrivateRedis r = new PrivateRedis(port, Files.createTempDirectory("engram-redis-"));
        r.resume();
        return r;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts (again) on the same port and waits until it accepts connections. */
    void resume() throws IOException, InterruptedException {
        process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IOException("redis-server did not start on port " + port + ": " + Files.readString(dir.resolve("redis.log")));
    }

    /** Kills it at once, as a crash or an operator's stop would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) kill();
    }
}
