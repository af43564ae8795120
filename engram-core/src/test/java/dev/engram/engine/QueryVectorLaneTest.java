package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.spi.Embedder;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Where a query's vector is computed: on the idle lane, or by the caller when the lane is busy or the work may be wasted. */
class QueryVectorLaneTest {
    private static final String LANE_THREAD = "engram-query-vector";

    /** Records the thread of every query it embeds; a query of "block" waits for {@link #release}. */
    private static final class ThreadRecordingEmbedder implements Embedder {
        final ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();
        final CountDownLatch blocking = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override public String modelId() { return "recording"; }
        @Override public int dimensions() { return 2; }
        @Override public List<float[]> embedAll(List<String> texts) { return texts.stream().map(this::embed).toList(); }

        @Override
        public float[] embed(String text) {
            threads.add(Thread.currentThread().getName());
            if (text.equals("block")) {
                blocking.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (text.equals("fail")) throw new IllegalStateException("model file unreadable: fix the path");
            return new float[] {text.length(), 1};
        }
    }

    @Test
    void anIdleLaneComputesAVectorTheCascadeIsSureToUse() {
        QueryVectorLane lane = new QueryVectorLane(true);
        ThreadRecordingEmbedder embedder = new ThreadRecordingEmbedder();
        float[] v = lane.begin(embedder, "four", true).get();
        assertArrayEquals(new float[] {4, 1}, v);
        assertEquals(List.of(LANE_THREAD), List.copyOf(embedder.threads));
    }

    @Test
    void aBusyLaneLeavesTheVectorToTheCaller() throws Exception {
        QueryVectorLane lane = new QueryVectorLane(true);
        ThreadRecordingEmbedder embedder = new ThreadRecordingEmbedder();
        QueryVectorLane.Pending first = lane.begin(embedder, "block", true);
        assertTrue(embedder.blocking.await(10, TimeUnit.SECONDS), "the lane took the first query");
        QueryVectorLane.Pending second = lane.begin(embedder, "other", true);
        assertArrayEquals(new float[] {5, 1}, second.get(), "computed without waiting for the lane");
        embedder.release.countDown();
        assertArrayEquals(new float[] {5, 1}, first.get());
        assertEquals(List.of(LANE_THREAD, Thread.currentThread().getName()), List.copyOf(embedder.threads));
    }

    @Test
    void aVectorTheStopRuleMayMakeUnneededIsLeftToTheCallerAndNotStartedEarly() {
        QueryVectorLane lane = new QueryVectorLane(true);
        ThreadRecordingEmbedder embedder = new ThreadRecordingEmbedder();
        QueryVectorLane.Pending maybe = lane.begin(embedder, "maybe", false);
        assertTrue(embedder.threads.isEmpty(), "nothing is computed before the caller asks");
        maybe.get();
        assertEquals(List.of(Thread.currentThread().getName()), List.copyOf(embedder.threads));
    }

    @Test
    void withoutASpareCoreTheCallerComputesEveryVector() {
        QueryVectorLane lane = new QueryVectorLane(false);
        ThreadRecordingEmbedder embedder = new ThreadRecordingEmbedder();
        lane.begin(embedder, "surely", true).get();
        assertEquals(List.of(Thread.currentThread().getName()), List.copyOf(embedder.threads));
    }

    @Test
    void theEmbeddersOwnFailureReachesTheCallerUnwrapped() {
        QueryVectorLane lane = new QueryVectorLane(true);
        ThreadRecordingEmbedder embedder = new ThreadRecordingEmbedder();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> lane.begin(embedder, "fail", true).get());
        assertEquals("model file unreadable: fix the path", e.getMessage());
        assertEquals(List.of(LANE_THREAD), List.copyOf(embedder.threads));
    }
}
