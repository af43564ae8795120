package dev.engram.cli;

import dev.engram.engine.Engine;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For long-running servers: gives vectors to memories written while the model was loading or by a
 * process without one. Polls every few seconds because other processes write to the same store.
 */
final class EmbeddingBackfillLoop {
    private static final Logger log = LoggerFactory.getLogger(EmbeddingBackfillLoop.class);
    /** One batch is one short write transaction: other writers wait at most that long. */
    static final int BATCH = 32;
    static final long PERIOD_SECONDS = 3;

    private EmbeddingBackfillLoop() {
    }

    static ScheduledExecutorService start(Engine engine) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-embedding-backfill");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                int total = 0;
                for (int n = engine.embedMissing(BATCH); n > 0; n = engine.embedMissing(BATCH)) total += n;
                if (total > 0) log.info("embedded {} memories that had no vector of the current model", total);
            } catch (RuntimeException e) {
                // keep the loop: the next round retries, and recall stays lexical for those memories meanwhile
                log.warn("embedding backfill failed: {}", e.toString());
            }
        }, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return timer;
    }
}
