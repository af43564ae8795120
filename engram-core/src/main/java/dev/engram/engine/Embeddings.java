package dev.engram.engine;

import dev.engram.spi.Embedder;
import dev.engram.spi.StoredEmbedding;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Embedding where it is optional: no embedder, one still loading or one failing all mean "no vector". */
final class Embeddings {
    private static final Logger log = LoggerFactory.getLogger(Embeddings.class);

    private Embeddings() {
    }

    static Optional<StoredEmbedding> embed(Embedder embedder, String text) {
        if (embedder == null || !embedder.ready()) return Optional.empty();
        try {
            return Optional.of(new StoredEmbedding(embedder.modelId(), embedder.embed(text)));
        } catch (RuntimeException e) {
            // the memory is still stored and found lexically; the backfill embeds it later
            log.warn("embedding with {} failed; storing without a vector: {}", embedder.modelId(), e.toString());
            return Optional.empty();
        }
    }
}
