package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real in-jar model: loaded once for the class because loading costs seconds. */
class MiniLmEmbedderTest {
    private static MiniLmEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = new MiniLmEmbedder();
    }

    @Test
    void vectorsHave384UnitLengthComponents() {
        float[] v = embedder.embed("Redis returned NOAUTH");
        assertEquals(384, v.length);
        assertEquals(384, embedder.dimensions());
        assertEquals(1.0, VectorMath.norm(v), 1e-4);
        assertEquals("all-minilm-l6-v2-q", embedder.modelId());
    }

    @Test
    void closeSentencesScoreHigherThanUnrelatedOnes() {
        float[] query = embedder.embed("database connection timed out");
        float[] related = embedder.embed("Postgres pool exhausted, queries time out");
        float[] unrelated = embedder.embed("Meeting moved to Tuesday");
        double close = VectorMath.dot(query, related);
        double far = VectorMath.dot(query, unrelated);
        assertTrue(close > far + 0.2, "related " + close + " vs unrelated " + far);

        float[] auth = embedder.embed("authentication failed");
        assertTrue(VectorMath.dot(auth, embedder.embed("NOAUTH error from Redis"))
                > VectorMath.dot(auth, embedder.embed("user prefers dark mode")));
    }

    @Test
    void embedAllKeepsInputOrderAndMatchesSingleEmbeds() {
        List<String> texts = List.of("the cat sat on the mat", "quarterly revenue grew", "a kitten on a rug");
        List<float[]> all = embedder.embedAll(texts);
        assertEquals(3, all.size());
        for (int i = 0; i < texts.size(); i++) {
            assertEquals(1.0, VectorMath.dot(all.get(i), embedder.embed(texts.get(i))), 1e-3, texts.get(i));
        }
        assertTrue(VectorMath.dot(all.get(0), all.get(2)) > VectorMath.dot(all.get(0), all.get(1)));
        assertEquals(List.of(), embedder.embedAll(List.of()));
    }
}
