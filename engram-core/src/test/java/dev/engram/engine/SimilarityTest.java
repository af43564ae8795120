package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.testing.ConceptEmbedder;
import org.junit.jupiter.api.Test;

class SimilarityTest {

    @Test
    void cosinesAreRescaledSoUnrelatedTextsScoreZeroAndIdenticalOnesOne() {
        assertEquals(0.0, Similarity.rescaled(0.7, 0.7), 1e-9);
        assertEquals(1.0, Similarity.rescaled(1.0, 0.7), 1e-9);
        assertEquals(0.5, Similarity.rescaled(0.85, 0.7), 1e-9);
        assertEquals(0.5, Similarity.ofIndexScore(0.925, 0.7), 1e-9); // the index scores (1 + cos) / 2
        assertEquals(0.42, Similarity.rescaled(0.42, 0), 1e-9);       // a model that measured nothing: raw
    }

    @Test
    void vectorsOfAModelThatIsNotLoadedHaveNoScale() {
        ConceptEmbedder current = new ConceptEmbedder();
        assertEquals(0.0, Similarity.unrelatedCosine(current, "concepts-v1"), 1e-9);
        assertTrue(Double.isNaN(Similarity.unrelatedCosine(current, "an-older-model")));
        assertTrue(Double.isNaN(Similarity.unrelatedCosine(null, "concepts-v1")));
        current.setReady(false);
        assertTrue(Double.isNaN(Similarity.unrelatedCosine(current, "concepts-v1")));
    }
}
