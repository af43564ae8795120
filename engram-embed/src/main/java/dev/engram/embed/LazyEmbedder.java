package dev.engram.embed;

import dev.engram.error.EmbeddingException;
import dev.engram.spi.Embedder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedder that loads on a background thread, so that opening the server (and the MCP
 * handshake) never waits for a model. Until {@link #isReady()} is true, {@link #embed} and
 * {@link #embedAll} throw {@link EmbeddingException} instead of blocking: callers check
 * {@code isReady()} and run lexically meanwhile. {@link #modelId()} and {@link #dimensions()} are
 * known up front and answer at once; the loaded model must agree with them or loading fails. Once
 * loaded, the model's cosine for unrelated texts is measured ({@link CalibratedEmbedder}); hand it a
 * model with its prefixes already on ({@link PrefixedEmbedder}), so that they count in the measurement.
 *
 * <p>A JVM that shuts down while ONNX Runtime creates a session crashes in native code (SIGSEGV):
 * ONNX Runtime's own shutdown hook releases its environment, and hooks run concurrently, so no hook
 * of ours can hold that release back. So the load itself runs on a non-daemon thread: a process whose
 * work is done exits when the load has finished, at most a model's load time later, instead of inside
 * it. The wait before a load is daemon, and a shutdown hook cancels a load that has not begun and
 * waits, bounded, for one in progress (for exits that do not wait for threads: {@code System.exit}).
 * {@code engram mcp} does not wait when its agent closes stdin: it closes the store and halts, which
 * runs no hook at all, so ONNX Runtime's release never starts (twenty halts around loads ended cleanly).
 */
public final class LazyEmbedder implements Embedder {
    private static final Logger log = LoggerFactory.getLogger(LazyEmbedder.class);

    private final String modelId;
    private final int dimensions;
    /** The name of the (non-daemon) thread that loads the model. */
    static final String LOAD_THREAD = "engram-embedder-load";
    /** Longest a shutdown waits for a load in progress; MiniLM loads in about a second here. */
    static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(20);

    private final CompletableFuture<Embedder> loaded = new CompletableFuture<>();
    // guarded by this: whether the loader may still start (false once shutdown began), and whether it has
    private boolean mayStart = true;
    private boolean started;

    private LazyEmbedder(String modelId, int dimensions) {
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        if (dimensions < 1) throw new IllegalArgumentException("dimensions must be >= 1, got " + dimensions);
        this.dimensions = dimensions;
    }

    /** The in-jar MiniLM, loading from now on. */
    public static LazyEmbedder minilm() {
        return bundled(BundledModel.MINILM, Duration.ZERO);
    }

    /** The in-jar MiniLM, loading after {@code delay}. */
    public static LazyEmbedder minilm(Duration delay) {
        return bundled(BundledModel.MINILM, delay);
    }

    /** A model shipped in the jar, loading after {@code delay}. */
    public static LazyEmbedder bundled(BundledModel model, Duration delay) {
        return start(model.modelId(), BundledModel.DIMENSIONS, model::load, delay);
    }

    /** Starts {@code loader} on a new thread and returns at once. */
    public static LazyEmbedder start(String modelId, int dimensions, Supplier<? extends Embedder> loader) {
        return start(modelId, dimensions, loader, Duration.ZERO);
    }

    /**
     * Like {@link #start(String, int, Supplier)}, but the loader thread first waits {@code delay}: a server
     * answers its client's handshake before the model competes with it for the CPU (measured: loading
     * at once made tools/list 1.4× slower on 2 cores, docs/benchmarks.md §9).
     */
    public static LazyEmbedder start(String modelId, int dimensions, Supplier<? extends Embedder> loader, Duration delay) {
        Objects.requireNonNull(loader, "loader");
        LazyEmbedder lazy = new LazyEmbedder(modelId, dimensions);
        Thread waiter = new Thread(() -> {
            if (!delay.isZero() && !lazy.sleep(delay)) return;
            if (!lazy.claimStart()) return;
            Thread loading = new Thread(() -> lazy.load(loader), LOAD_THREAD);
            loading.setDaemon(false); // see the class comment: the JVM must not shut down inside the load
            loading.start();
        }, "engram-embedder-wait");
        waiter.setDaemon(true); // waiting to load keeps nothing alive
        Runtime.getRuntime().addShutdownHook(new Thread(lazy::quiesce, "engram-embedder-shutdown"));
        waiter.start();
        return lazy;
    }

    private synchronized boolean claimStart() {
        if (mayStart) {
            started = true;
            return true;
        }
        loaded.completeExceptionally(new EmbeddingException("embedder " + modelId + " was not loaded: the process is stopping"));
        return false;
    }

    /**
     * Called at shutdown (and by tests): a load that has not started never will; one in progress is
     * waited for, at most {@link #SHUTDOWN_WAIT}, so the process never exits inside native initialisation.
     */
    void quiesce() {
        boolean loading;
        synchronized (this) {
            loading = started && !loaded.isDone();
            mayStart = false;
        }
        if (loading) awaitReady(SHUTDOWN_WAIT);
    }

    private boolean sleep(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loaded.completeExceptionally(new EmbeddingException("embedder " + modelId + " was interrupted before loading"));
            return false;
        }
    }

    private void load(Supplier<? extends Embedder> loader) {
        long start = System.nanoTime();
        try {
            Embedder e = loader.get();
            if (!e.modelId().equals(modelId) || e.dimensions() != dimensions) {
                throw new EmbeddingException("loaded model is " + e.modelId() + " (" + e.dimensions()
                        + " dimensions), expected " + modelId + " (" + dimensions + ")");
            }
            loaded.complete(CalibratedEmbedder.measure(e));
            log.info("embedder {} ready after {} ms", modelId, (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException | Error e) {
            // Errors too: a missing native ONNX library surfaces as UnsatisfiedLinkError, and the server must stay lexical, not die
            log.error("embedder {} failed to load; recall stays lexical", modelId, e);
            loaded.completeExceptionally(e);
        }
    }

    /** True once the model is loaded; never blocks. */
    public boolean isReady() {
        return loaded.isDone() && !loaded.isCompletedExceptionally();
    }

    @Override
    public boolean ready() {
        return isReady();
    }

    /** Why loading failed, if it did; empty while loading and after success. */
    public Optional<Throwable> failure() {
        if (!loaded.isCompletedExceptionally()) return Optional.empty();
        try {
            loaded.join();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getCause() != null ? e.getCause() : e);
        }
    }

    /**
     * Waits up to {@code timeout} for the model; true when ready, false on timeout or failed load
     * (see {@link #failure()}). For batch tools and tests; the server never waits.
     */
    public boolean awaitReady(Duration timeout) {
        try {
            loaded.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private Embedder loadedOrThrow() {
        if (isReady()) return loaded.join();
        Optional<Throwable> failed = failure();
        if (failed.isPresent()) {
            throw new EmbeddingException("embedder " + modelId + " failed to load: " + failed.get().getMessage(),
                    failed.get());
        }
        throw new EmbeddingException("embedder " + modelId + " is still loading; check isReady() and search lexically meanwhile");
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public float[] embed(String text) {
        return loadedOrThrow().embed(text);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return loadedOrThrow().embedAll(texts);
    }

    @Override
    public float[] embedQuery(String query) {
        return loadedOrThrow().embedQuery(query);
    }

    /** The loaded model's, measured when it loaded ({@link CalibratedEmbedder}); 0 until then. */
    @Override
    public double unrelatedCosine() {
        return isReady() ? loaded.join().unrelatedCosine() : 0;
    }
}
