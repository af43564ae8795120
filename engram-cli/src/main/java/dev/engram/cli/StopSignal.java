package dev.engram.cli;

/**
 * SIGTERM (what service managers, Kubernetes and {@code kill} send) stops a server gracefully and exits 0: the
 * JVM's own handling would run the shutdown hooks too, but exit with 143, which supervisors report as a crash.
 * SIGINT (Ctrl-C) keeps the JVM's handling (the same hook, exit 130). Where the signal API is missing, the shutdown
 * hook alone stops the server.
 */
final class StopSignal {
    private StopSignal() {
    }

    @SuppressWarnings("removal")
    static void onTerminate(Runnable stop) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> {
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
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // the shutdown hook remains
        }
    }
}
