package dev.engram.cli;

/**
 * SIGTERM (what service managers, Kubernetes and {@code kill} send) stops a server gracefully and exits 0: the
 * JVM's own handling would run the shutdown hooks too, but exit with 143, which supervisors report as a crash.
 * SIGINT (Ctrl-C) keeps the JVM's handling (the same hook, exit 130). Where the signal API is missing, the shutdown
 * hook alone stops the server.
 *
 * <p>The stdio server ({@code engram mcp}) is stopped the other way: see {@link #haltOnSignal()}.
 */
final class StopSignal {
    private StopSignal() {
    }

    static void onTerminate(Runnable stop) {
        handle("TERM", signal -> {
            // not on the signal's own thread: stopping waits for requests in flight
            Thread t = new Thread(() -> {
                int code = 0;
                try {
                    stop.run();
                } catch (RuntimeException | Error e) {
                    code = 1; // a stop that failed is not reported as a clean one; the process still ends
                    System.err.println("engram: stopping failed: " + e);
                } finally {
                    System.exit(code);
                }
            }, "engram-sigterm");
            t.start();
        });
    }

    /**
     * SIGTERM and SIGINT end the stdio server at once, writing nothing more. Whatever a close writes after the signal
     * races the caller, which may delete the folder the moment it has signalled (toon-memory's own integration suite
     * kills its server and removes the test folder in the same breath; a final index commit or a segment merge then
     * adds files under it and the removal fails with ENOTEMPTY). Nothing is lost by stopping this way, exactly as with
     * kill -9: every acknowledged write is already committed in the store, the search index replays from its last
     * group commit (at most {@code WriterLease.COMMIT_INTERVAL} old) on the next start, and dead sessions and locks
     * are recognised by their pid. Closing stdin, which is how MCP clients end a stdio server, still closes everything
     * in order. SIGTERM exits 0, as {@code engram serve} does; SIGINT exits 130, the shell's code for Ctrl-C.
     */
    static void haltOnSignal() {
        handle("TERM", signal -> Runtime.getRuntime().halt(0));
        handle("INT", signal -> Runtime.getRuntime().halt(130));
    }

    @SuppressWarnings("removal")
    private static void handle(String name, sun.misc.SignalHandler handler) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), handler);
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // the JVM's own handling remains: the shutdown hook closes in order
        }
    }
}
