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
}
