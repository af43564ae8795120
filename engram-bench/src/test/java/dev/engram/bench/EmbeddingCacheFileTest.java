package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.spi.Embedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backfill's vector file: a second run reads what the first computed, and queries always reach the model. */
class EmbeddingCacheFileTest {
    @TempDir Path dir;

    /** Two dimensions derived from the text; records every text it was asked to embed. */
    private static final class CountingModel implements Embedder {
        final List<String> embedded = new ArrayList<>();
        final List<String> queried = new ArrayList<>();

        @Override public String modelId() { return "fake/model:v1"; }
        @Override public int dimensions() { return 2; }
        @Override public float[] embed(String text) { return embedAll(List.of(text)).get(0); }
        @Override public List<float[]> embedAll(List<String> texts) {
            embedded.addAll(texts);
            return texts.stream().map(t -> new float[] {t.length(), t.hashCode() % 7}).toList();
        }
        @Override public float[] embedQuery(String query) {
            queried.add(query);
            return new float[] {1, 0};
        }
    }

    @Test
    void aSecondRunReadsTheVectorsTheFirstComputed() throws Exception {
        CountingModel first = new CountingModel();
        EmbeddingCacheFile cache = EmbeddingCacheFile.open(dir, first);
        List<float[]> computed = cache.embedder().embedAll(List.of("alpha", "beta", "alpha"));
        assertEquals(List.of("alpha", "beta"), first.embedded, "a text the batch repeats is embedded once");
        cache.save();

        CountingModel second = new CountingModel();
        EmbeddingCacheFile reopened = EmbeddingCacheFile.open(dir, second);
        Embedder cached = reopened.embedder();
        assertEquals(2, reopened.size(), "the file is read at the first use");
        List<float[]> read = cached.embedAll(List.of("beta", "gamma", "alpha"));
        assertEquals(List.of("gamma"), second.embedded, "only the text no run embedded reaches the model");
        assertArrayEquals(computed.get(1), read.get(0));
        assertArrayEquals(computed.get(0), read.get(2));

        cached.embedQuery("beta");
        assertEquals(List.of("beta"), second.queried, "queries are never answered from the file");
        reopened.save();
        assertEquals(0, reopened.size(), "saved and let go: the timed part of a run holds no vector of the cache");
        CountingModel third = new CountingModel();
        EmbeddingCacheFile.open(dir, third).embedder().embedAll(List.of("gamma", "alpha"));
        assertEquals(List.of(), third.embedded, "the text the second run embedded was saved too");
    }

    /** A file another model wrote (other dimensions) or something else entirely is refused by name, never read as vectors. */
    @Test
    void aFileOfAnotherShapeIsRefusedWithWhatToDo() throws Exception {
        CountingModel model = new CountingModel();
        EmbeddingCacheFile cache = EmbeddingCacheFile.open(dir, model);
        cache.embedder().embedAll(List.of("alpha"));
        cache.save();
        Path file;
        try (var files = java.nio.file.Files.list(dir)) {
            file = files.findFirst().orElseThrow();
        }
        java.nio.file.Files.write(file, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        var e = org.junit.jupiter.api.Assertions.assertThrows(java.io.UncheckedIOException.class,
                () -> EmbeddingCacheFile.open(dir, new CountingModel()).embedder());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(file.toString())
                && e.getCause().getMessage().contains("delete it"), e + " / " + e.getCause());
    }
}
