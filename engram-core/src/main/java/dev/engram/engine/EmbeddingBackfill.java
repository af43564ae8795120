package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredEmbedding;
import java.util.List;

/**
 * Gives vectors to memories that have none from the current model: those written while the model
 * was loading, by a process without one, or under another model (after a model change this is the
 * reindex). Works in batches, one transaction each, so other writers wait at most one batch.
 */
final class EmbeddingBackfill {
    private final MemoryStore store;
    private final SearchIndex index;
    private final Embedder embedder;

    EmbeddingBackfill(MemoryStore store, SearchIndex index, Embedder embedder) {
        this.store = store;
        this.index = index;
        this.embedder = embedder;
    }

    /** Embeds up to {@code max} memories; returns how many got a vector (0 when none is missing or no model is ready). */
    int embedMissing(int max) {
        if (embedder == null || !embedder.ready()) return 0;
        List<Memory> batch = store.getAll(store.missingEmbeddings(embedder.modelId(), max));
        if (batch.isEmpty()) return 0;
        List<float[]> vectors = embedder.embedAll(batch.stream().map(Memory::content).toList());
        int written = store.write(tx -> {
            int n = 0;
            for (int i = 0; i < batch.size(); i++) {
                Memory m = batch.get(i);
                // skip a memory amended or deleted since it was read: its new content gets its own vector
                if (tx.get(m.id()).filter(now -> now.content().equals(m.content())).isEmpty()) continue;
                tx.putEmbedding(m.id(), new StoredEmbedding(embedder.modelId(), vectors.get(i)));
                n++;
            }
            return n;
        });
        index.catchUp();
        return written;
    }
}
