package dev.engram.cli;

import java.util.Objects;

/**
 * A stop sequence that runs once, whoever asks first: stdin ending or the JVM's shutdown hook. A caller that comes
 * while it runs waits for it to finish, so the JVM never exits halfway through a close that already began.
 */
final class RunOnce implements Runnable {
    private final Runnable action;
    private boolean done; // guarded by this

    RunOnce(Runnable action) {
        this.action = Objects.requireNonNull(action, "action");
    }

    @Override
    public synchronized void run() {
        if (done) return;
        done = true;
        action.run();
    }

    /**
     * Runs the sequence, then halts: exit code 0, or 1 when it failed. A stdio server ends this way when its input
     * ends, because a plain exit would run the JVM's hooks, which wait for a model still loading (see LazyEmbedder).
     */
    void runThenHalt() {
        int code = 0;
        try {
            run();
        } catch (RuntimeException | Error e) {
            code = 1;
            System.err.println("engram: stopping failed: " + e);
        } finally {
            Runtime.getRuntime().halt(code);
        }
    }
}
