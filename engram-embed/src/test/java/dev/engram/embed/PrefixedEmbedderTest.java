package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixedEmbedderTest {
    /** Records every text it is asked to embed. */
    private static final class Recording implements Embedder {
        final List<String> seen = new ArrayList<>();
        boolean ready = true;

        @Override
        public String modelId() {
            return "rec";
        }

        @Override
        public int dimensions() {
            return 1;
        }

        @Override
        public float[] embed(String text) {
            seen.add(text);
            return new float[] {1};
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            seen.addAll(texts);
            return texts.stream().map(t -> new float[] {1}).toList();
        }

        @Override
        public boolean ready() {
            return ready;
        }
    }

    @Test
    void storedTextsGetThePassagePrefixAndQueriesTheQueryPrefix() {
        Recording inner = new Recording();
        Embedder e5 = PrefixedEmbedder.wrap(inner, "query: ", "passage: ");
        e5.embed("Redis runs on 6379");
        e5.embedAll(List.of("a", "b"));
        e5.embedQuery("which port");
        assertEquals(List.of("passage: Redis runs on 6379", "passage: a", "passage: b", "query: which port"), inner.seen);
    }

    @Test
    void thePassagePrefixIsPartOfTheModelIdAndTheQueryPrefixIsNot() {
        Recording inner = new Recording();
        assertEquals("rec+passage:passage:", PrefixedEmbedder.wrap(inner, "query: ", "passage: ").modelId());
        assertEquals("rec", PrefixedEmbedder.wrap(inner, "Represent this sentence: ", "").modelId(),
                "a query instruction changes no stored vector");
        assertSame(inner, PrefixedEmbedder.wrap(inner, "", ""));
    }

    @Test
    void readinessIsTheInnerEmbedders() {
        Recording inner = new Recording();
        inner.ready = false;
        assertFalse(PrefixedEmbedder.wrap(inner, "query: ", "passage: ").ready());
    }
}
