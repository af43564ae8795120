package dev.engram.engine;

import dev.engram.spi.Embedder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Embeds a recall's query on a spare core while the calling thread runs the lexical layers. The query's
 * forward pass is about 3 ms of a 5 ms recall with the default model and does not depend on the lexical
 * layers, so a recall that is sure to run L3 waits for the longer of the two instead of their sum
 * (docs/benchmarks.md, "The query's vector on the other core").
 *
 * <p>The lane is one thread for the whole process (a spare core is the machine's, not an engine's) and
 * takes a job only when it is idle: a busy lane, or a one-core machine, leaves the embedding to the caller,
 * as before. Only vectors the cascade is sure to use are started early: one that the stop rule might make
 * unneeded (a short query, decisively matched at L2) would still run to its end beside the recall that
 * dropped it, and on two cores that slowed one-keyword recalls over stdio (p50 1.38 → 1.64 ms, measured).
 */
final class QueryVectorLane {
    /** The process's lane; on a one-core machine it has no thread and every caller embeds its own query. */
    static final QueryVectorLane SHARED = new QueryVectorLane(Runtime.getRuntime().availableProcessors() > 1);

    private final ExecutorService worker;
    /** Set while the lane holds a job: it admits one at a time, so a job never waits behind another. */
    private final AtomicBoolean busy = new AtomicBoolean();

    QueryVectorLane(boolean enabled) {
        this.worker = enabled ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "engram-query-vector");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    /**
     * The vector of {@code query}: started now on the lane when {@code early} (the caller is sure to use it
     * and has other work to do meanwhile) and the lane is free, otherwise computed by the caller when it asks
     * ({@link Pending#get}).
     */
    Pending begin(Embedder embedder, String query, boolean early) {
        if (worker != null && early && busy.compareAndSet(false, true)) {
            CompletableFuture<float[]> vector = new CompletableFuture<>();
            worker.execute(() -> {
                try {
                    float[] v = embedder.embedQuery(query);
                    busy.set(false); // free before the caller wakes, so its next recall finds the lane idle
                    vector.complete(v);
                } catch (Throwable t) {
                    busy.set(false);
                    vector.completeExceptionally(t);
                }
            });
            return () -> join(vector);
        }
        return () -> embedder.embedQuery(query);
    }

    private static float[] join(CompletableFuture<float[]> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            // the embedder's own failure, as the caller would have seen it inline
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** A query's vector, being computed or to be computed when asked for. */
    interface Pending {
        float[] get();
    }
}
