package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.engine.RememberCommand;
import dev.engram.spi.Embedder;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EmbeddingBackfillLoopTest {
    /** Ready at once; each batch waits for the test to release it and is counted. */
    private static final class GatedEmbedder implements Embedder {
        final CountDownLatch inBatch = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger batches = new AtomicInteger();

        @Override
        public String modelId() {
            return "gated";
        }

        @Override
        public int dimensions() {
            return 2;
        }

        @Override
        public float[] embed(String text) {
            return new float[] {1, 0};
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            batches.incrementAndGet();
            inBatch.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return texts.stream().map(this::embed).toList();
        }
    }

    @Test
    void closeWaitsForTheBatchInProgressAndStartsNoOther() throws Exception {
        Clock clock = Clock.systemUTC();
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        InMemorySearchIndex index = new InMemorySearchIndex(store);
        Engine lexical = new Engine(store, index, clock);
        for (int i = 0; i < EmbeddingBackfillLoop.BATCH * 3; i++) lexical.remember(RememberCommand.of("memory number " + i));
        GatedEmbedder embedder = new GatedEmbedder();
        Engine engine = new Engine(store, index, clock, TagVocabulary.builtInOnly(), embedder, RecallSettings.defaults());

        EmbeddingBackfillLoop loop = EmbeddingBackfillLoop.start(engine, Duration.ofMillis(20));
        assertTrue(embedder.inBatch.await(10, TimeUnit.SECONDS), "the first round started");
        CompletableFuture<Void> closing = CompletableFuture.runAsync(loop::close);
        Thread.sleep(200);
        assertFalse(closing.isDone(), "close waits for the batch that is embedding");
        embedder.release.countDown();
        closing.get(10, TimeUnit.SECONDS);
        assertTrue(loop.isClosed());
        assertEquals(1, embedder.batches.get(), "no batch after the one in progress, though two were left");
    }
}
