package dev.engram.cli.hook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The resident hook process of one data folder ({@code engram hook daemon}): it keeps the stores open
 * and warm and answers the hook calls the {@code engram} launcher sends it over loopback HTTP (the ones
 * {@link HookRequest#servable()} names), by running the very same command in process ({@link Runner}), so its
 * answer is the in-process hook's byte for byte. Calls run one at a time: the gates' state stays in the
 * store's locked state file, shared with hook calls that run in their own JVM meanwhile.
 * <p>Only 127.0.0.1, and only requests carrying the secret of {@link HookDaemonFiles#auth()}. It ends
 * after {@code idle} without calls, on {@code POST /stop}, when {@code stale} says its jar was rebuilt,
 * or when its endpoint file was removed or taken over.
 */
public final class HookDaemon implements AutoCloseable {
    /** What the command printed and returned. */
    public record Reply(int exitCode, byte[] out, byte[] err) {
    }

    /** Runs one call as the CLI would in its own process. */
    public interface Runner extends AutoCloseable {
        Reply run(HookRequest request);

        @Override
        default void close() {
        }
    }

    static final String EXIT_HEADER = "X-Engram-Exit";
    static final String STDERR_HEADER = "X-Engram-Stderr";

    private final HookDaemonFiles files;
    private final Runner runner;
    private final Duration idle;
    private final BooleanSupplier stale;
    private final PrintStream log;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final byte[] secret;
    private final HttpServer server;
    private final ExecutorService calls;
    private final ScheduledExecutorService timer;
    private final HookDaemonFiles.Endpoint endpoint;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile long lastCallNanos = System.nanoTime();
    private volatile String why = "";

    private HookDaemon(HookDaemonFiles files, Runner runner, Duration idle, BooleanSupplier stale, PrintStream log,
                       FileChannel lockChannel, FileLock lock) throws IOException {
        this.files = files;
        this.runner = runner;
        this.idle = idle;
        this.stale = stale;
        this.log = log;
        this.lockChannel = lockChannel;
        this.lock = lock;
        byte[] s = new byte[32];
        new SecureRandom().nextBytes(s);
        this.secret = ("Bearer " + HexFormat.of().formatHex(s)).getBytes(StandardCharsets.US_ASCII);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        this.calls = Executors.newSingleThreadExecutor(r -> new Thread(r, "engram-hookd-call"));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-hookd-idle");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(calls);
        server.createContext("/hook", this::hook);
        server.createContext("/stop", this::stop);
        server.start();
        this.endpoint = new HookDaemonFiles.Endpoint(server.getAddress().getPort(), ProcessHandle.current().pid());
        files.write(endpoint, new String(secret, StandardCharsets.US_ASCII).substring("Bearer ".length()));
        long tick = Math.max(200, Math.min(5000, idle.toMillis() / 4));
        timer.scheduleWithFixedDelay(this::check, tick, tick, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the daemon of {@code files}' data folder; empty, and nothing started, when one already runs
     * there (it holds the lock).
     */
    public static Optional<HookDaemon> start(HookDaemonFiles files, Runner runner, Duration idle, BooleanSupplier stale,
                                             PrintStream log) throws IOException {
        return start(files, runner, idle, stale, log, () -> { });
    }

    /** As above, running {@code warmUp} once the lock is held and before the endpoint is written. */
    public static Optional<HookDaemon> start(HookDaemonFiles files, Runner runner, Duration idle, BooleanSupplier stale,
                                             PrintStream log, Runnable warmUp) throws IOException {
        files.create();
        FileChannel ch = FileChannel.open(files.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException e) {
            lock = null; // a daemon of this very process holds it
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            ch.close();
            return Optional.empty();
        }
        try {
            warmUp.run();
            return Optional.of(new HookDaemon(files, runner, idle, stale, log, ch, lock));
        } catch (IOException | RuntimeException e) {
            lock.release();
            ch.close();
            throw e;
        }
    }

    /** Whether a daemon holds the lock of {@code files}' data folder now (a start in progress counts). */
    public static boolean running(HookDaemonFiles files) {
        if (!java.nio.file.Files.isDirectory(files.dir())) return false;
        try (FileChannel ch = FileChannel.open(files.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) return true;
            l.release();
            return false;
        } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
            return true; // this very process holds it
        }
    }

    public HookDaemonFiles.Endpoint endpoint() {
        return endpoint;
    }

    /** Blocks until the daemon has ended; returns why it did. */
    public String awaitEnd() throws InterruptedException {
        ended.await();
        return why;
    }

    public boolean awaitEnd(Duration d) throws InterruptedException {
        return ended.await(d.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void check() {
        if (closing.get()) return;
        if (System.nanoTime() - lastCallNanos > idle.toNanos()) end("idle for " + idle.toSeconds() + " s");
        else if (files.readEndpoint().filter(endpoint::equals).isEmpty()) end("its endpoint file was removed or replaced");
        else if (stale.getAsBoolean()) end("its jar was rebuilt");
    }

    private boolean authorised(HttpExchange x) throws IOException {
        String given = x.getRequestHeaders().getFirst("Authorization");
        if (given != null && MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.US_ASCII))) return true;
        send(x, 401, "a request needs this daemon's secret (the Authorization line of " + files.auth() + ")\n");
        return false;
    }

    private void hook(HttpExchange x) throws IOException {
        try (x) {
            if (!x.getRequestMethod().equals("POST")) {
                send(x, 405, "POST a hook request to /hook\n");
                return;
            }
            if (!authorised(x)) return;
            if (closing.get() || stale.getAsBoolean()) {
                send(x, 503, "this daemon is ending; run the hook in its own process\n");
                if (!closing.get()) endSoon("its jar was rebuilt");
                return;
            }
            byte[] body;
            try (InputStream in = x.getRequestBody()) {
                body = in.readNBytes(HookRequest.MAX_BYTES + 1);
            }
            if (body.length > HookRequest.MAX_BYTES) {
                send(x, 413, "a hook request is at most " + HookRequest.MAX_BYTES + " bytes\n");
                return;
            }
            HookRequest request;
            try {
                request = HookRequest.decode(body);
            } catch (IllegalArgumentException e) {
                send(x, 400, "not a hook request: " + e.getMessage() + "\n");
                return;
            }
            if (!request.servable()) {
                send(x, 400, "the daemon answers only `hook post-tool`, `feedback`, `session-start`, `capture`, and `prompt` and"
                        + " `stop` without a chat model; not " + request.args() + "\n");
                return;
            }
            // calls run one at a time: one queued behind a slow call may come up after its launcher stopped waiting
            if (HookRequest.givenUp(x.getRequestHeaders().getFirst(HookRequest.SENT_HEADER), request.env(), System.currentTimeMillis())) {
                send(x, 503, "the launcher has stopped waiting for this call; its JVM runs it\n");
                return;
            }
            Reply reply = runner.run(request);
            lastCallNanos = System.nanoTime();
            x.getResponseHeaders().set(EXIT_HEADER, Integer.toString(reply.exitCode()));
            if (reply.err().length > 0) x.getResponseHeaders().set(STDERR_HEADER, Base64.getEncoder().encodeToString(reply.err()));
            x.sendResponseHeaders(200, reply.out().length == 0 ? -1 : reply.out().length);
            if (reply.out().length > 0) {
                try (OutputStream os = x.getResponseBody()) {
                    os.write(reply.out());
                }
            }
        } catch (RuntimeException e) {
            log.println("engram hook daemon: a call failed: " + e);
            try {
                send(x, 500, "the daemon failed: " + e.getMessage() + "\n");
            } catch (IOException | RuntimeException ignored) {
                // the client falls back on any failure
            }
        }
    }

    private void stop(HttpExchange x) throws IOException {
        try (x) {
            if (!x.getRequestMethod().equals("POST")) {
                send(x, 405, "POST to /stop\n");
                return;
            }
            if (!authorised(x)) return;
            send(x, 200, "stopping\n");
        }
        endSoon("asked to stop");
    }

    private static void send(HttpExchange x, int status, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        x.sendResponseHeaders(status, b.length);
        try (OutputStream os = x.getResponseBody()) {
            os.write(b);
        }
    }

    /** Ends from another thread: the HTTP server waits for the handler that asks it to stop. */
    private void endSoon(String reason) {
        Thread t = new Thread(() -> end(reason), "engram-hookd-stop");
        t.setDaemon(false);
        t.start();
    }

    private void end(String reason) {
        if (!closing.compareAndSet(false, true)) return;
        why = reason;
        files.remove(endpoint); // first: new calls go to a JVM at once
        server.stop(0);
        calls.shutdown();
        try {
            calls.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        try {
            runner.close();
        } catch (RuntimeException e) {
            log.println("engram hook daemon: closing the stores failed: " + e.getMessage());
        }
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            // the lock goes with the process
        }
        log.println("engram hook daemon: ended (" + reason + ")");
        ended.countDown();
    }

    @Override
    public void close() {
        end("closed");
    }
}
