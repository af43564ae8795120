package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EmbeddingException;
import dev.engram.spi.Embedder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class LazyEmbedderTest {

    /** A two-dimensional stand-in whose load waits for the test to release it. */
    private record FixedEmbedder(String modelId, int dimensions) implements Embedder {
        @Override
        public float[] embed(String text) {
            return new float[] {1, 0};
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(this::embed).toList();
        }
    }

    @Test
    void answersAtOnceAndRefusesToEmbedUntilLoaded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LazyEmbedder lazy = LazyEmbedder.start("fixed", 2, () -> {
            awaitQuietly(release);
            return new FixedEmbedder("fixed", 2);
        });
        assertFalse(lazy.isReady());
        assertEquals("fixed", lazy.modelId());
        assertEquals(2, lazy.dimensions());
        EmbeddingException loading = assertThrows(EmbeddingException.class, () -> lazy.embed("x"));
        assertTrue(loading.getMessage().contains("still loading"), loading.getMessage());
        assertFalse(lazy.awaitReady(Duration.ofMillis(50)));

        release.countDown();
        assertTrue(lazy.awaitReady(Duration.ofSeconds(10)));
        assertTrue(lazy.isReady());
        assertEquals(1.0f, lazy.embed("x")[0]);
        assertEquals(2, lazy.embedAll(List.of("a", "b")).size());
        assertTrue(lazy.failure().isEmpty());
    }

    @Test
    void aDelayedLoadDoesNotStartBeforeItsDelay() {
        long start = System.nanoTime();
        long[] loadedAt = new long[1];
        LazyEmbedder lazy = LazyEmbedder.start("fixed", 2, () -> {
            loadedAt[0] = System.nanoTime();
            return new FixedEmbedder("fixed", 2);
        }, Duration.ofMillis(300));
        assertFalse(lazy.isReady());
        assertTrue(lazy.awaitReady(Duration.ofSeconds(10)));
        assertTrue(loadedAt[0] - start >= Duration.ofMillis(300).toNanos(),
                "the loader ran after " + (loadedAt[0] - start) / 1_000_000 + " ms");
    }

    @Test
    void shutdownCancelsALoadThatHasNotStartedAndWaitsForOneInProgress() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean loaderRan = new java.util.concurrent.atomic.AtomicBoolean();
        LazyEmbedder delayed = LazyEmbedder.start("fixed", 2, () -> {
            loaderRan.set(true);
            return new FixedEmbedder("fixed", 2);
        }, Duration.ofMillis(200));
        delayed.quiesce();
        assertFalse(delayed.awaitReady(Duration.ofSeconds(5)));
        assertFalse(loaderRan.get(), "a load that had not begun must not begin during shutdown");
        assertTrue(delayed.failure().orElseThrow().getMessage().contains("the process is stopping"));

        CountDownLatch inLoader = new CountDownLatch(1);
        LazyEmbedder loading = LazyEmbedder.start("fixed", 2, () -> {
            inLoader.countDown();
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new FixedEmbedder("fixed", 2);
        });
        assertTrue(inLoader.await(5, java.util.concurrent.TimeUnit.SECONDS));
        loading.quiesce();
        assertTrue(loading.isReady(), "shutdown waited for the load in progress");
    }

    /** A finished process must not exit inside ONNX Runtime's session creation (see the class comment). */
    @Test
    void theLoadRunsOnANonDaemonThreadWhileTheWaitBeforeItIsDaemon() throws Exception {
        CountDownLatch inLoad = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] loader = new Thread[1];
        LazyEmbedder lazy = LazyEmbedder.start("fixed", 2, () -> {
            loader[0] = Thread.currentThread();
            inLoad.countDown();
            awaitQuietly(release);
            return new FixedEmbedder("fixed", 2);
        }, Duration.ofMillis(100));
        Thread waiter = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("engram-embedder-wait")).findFirst().orElseThrow();
        assertTrue(waiter.isDaemon(), "waiting out the delay keeps no process alive");
        assertTrue(inLoad.await(10, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(LazyEmbedder.LOAD_THREAD, loader[0].getName());
        assertFalse(loader[0].isDaemon(), "the JVM waits for the load before it shuts down");
        release.countDown();
        assertTrue(lazy.awaitReady(Duration.ofSeconds(10)));
        loader[0].join(10_000);
        assertFalse(loader[0].isAlive(), "and the thread ends with the load");
    }

    @Test
    void aFailedLoadIsReportedAndNeverReady() {
        LazyEmbedder lazy = LazyEmbedder.start("broken", 2, () -> {
            throw new IllegalStateException("model file is truncated");
        });
        assertFalse(lazy.awaitReady(Duration.ofSeconds(10)));
        assertFalse(lazy.isReady());
        assertEquals("model file is truncated", lazy.failure().orElseThrow().getMessage());
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> lazy.embed("x"));
        assertTrue(e.getMessage().contains("failed to load: model file is truncated"), e.getMessage());
    }

    @Test
    void aModelOfOtherDimensionsThanAnnouncedFailsTheLoad() {
        LazyEmbedder lazy = LazyEmbedder.start("fixed", 384, () -> new FixedEmbedder("fixed", 2));
        assertFalse(lazy.awaitReady(Duration.ofSeconds(10)));
        assertTrue(lazy.failure().orElseThrow().getMessage().contains("expected fixed (384)"));
    }

    @Test
    void minilmLoadsInTheBackground() {
        long start = System.nanoTime();
        LazyEmbedder lazy = LazyEmbedder.minilm();
        long returnedMs = (System.nanoTime() - start) / 1_000_000;
        // the model takes over a second to load; handing back the wrapper must not wait for it
        assertTrue(returnedMs < 200, "minilm() took " + returnedMs + " ms to return");
        assertEquals(384, lazy.dimensions());
        assertTrue(lazy.awaitReady(Duration.ofMinutes(2)), () -> "not ready: " + lazy.failure());
        assertEquals(1.0, VectorMath.norm(lazy.embed("hello world")), 1e-4);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
