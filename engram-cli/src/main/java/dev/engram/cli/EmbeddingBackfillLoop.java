package dev.engram.cli;

import dev.engram.engine.Engine;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For long-running servers: gives vectors to memories written while the model was loading or by a
 * process without one. Polls every few seconds because other processes write to the same store.
 * Close it before the store: a batch running while the store closed failed with "database connection
 * closed" at nearly every exit of a server that had just loaded its model.
 */
final class EmbeddingBackfillLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddingBackfillLoop.class);
    /** One batch is one short write transaction: other writers wait at most that long. */
    static final int BATCH = 32;
    static final Duration PERIOD = Duration.ofSeconds(3);
    /** Longest a close waits for the batch in progress: 32 embeddings and one write take well under a second. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final ScheduledExecutorService timer;

    private EmbeddingBackfillLoop(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static EmbeddingBackfillLoop start(Engine engine) {
        return start(engine, PERIOD);
    }

    static EmbeddingBackfillLoop start(Engine engine, Duration period) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-embedding-backfill");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                int total = 0;
                for (int n = engine.embedMissing(BATCH); n > 0 && !timer.isShutdown(); n = engine.embedMissing(BATCH)) {
                    total += n;
                }
                if (total > 0) log.info("embedded {} memories that had no vector of the current model", total);
            } catch (RuntimeException e) {
                // keep the loop: the next round retries, and recall stays lexical for those memories meanwhile
                log.warn("embedding backfill failed: {}", e.toString());
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return new EmbeddingBackfillLoop(timer);
    }

    /** Stops the rounds and waits, bounded, for the batch in progress to finish. */
    @Override
    public void close() {
        timer.shutdown(); // no new round; the running one stops after its current batch
        try {
            if (!timer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("embedding backfill still running after {} s; closing the store under it", CLOSE_WAIT.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean isClosed() {
        return timer.isTerminated();
    }
}
