package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The steps recall runs are one set of {@link RecallStep}s, not four booleans (issue 15). */
class RecallSettingsTest {
    @Test
    void theDefaultsRunEveryStepWithTheTunedConstants() {
        RecallSettings d = RecallSettings.defaults();
        assertEquals(EnumSet.allOf(RecallStep.class), d.steps());
        for (RecallStep s : RecallStep.values()) assertTrue(d.runs(s), s.name());
        assertEquals(RecallSettings.DEFAULT_LEXICAL_WEIGHT, d.lexicalWeight());
        assertEquals(0.5, RecallSettings.DEFAULT_LEXICAL_WEIGHT);
        assertEquals(100, d.depth());
        assertEquals(StopRule.DEFAULT, d.stop());
        assertEquals(1.0, d.graphWeight());
        assertEquals(2, d.graphHops());
        assertEquals(1.0, d.boostScale());
        assertEquals(0.1, d.centralityWeight());
    }

    @Test
    void withStepsKeepsEverythingElse() {
        RecallSettings d = RecallSettings.defaults().withDepth(40);
        RecallSettings bm25 = d.withSteps(RecallStep.LEXICAL);
        assertEquals(Set.of(RecallStep.LEXICAL), bm25.steps());
        assertFalse(bm25.runs(RecallStep.SEMANTIC) || bm25.runs(RecallStep.GRAPH) || bm25.runs(RecallStep.CASCADE));
        assertEquals(40, bm25.depth());
        assertEquals(d, bm25.withSteps(RecallStep.values()), "the same steps give equal settings");
        assertEquals(bm25, d.withSteps(RecallStep.LEXICAL, RecallStep.LEXICAL), "a repeated step counts once");
    }

    @Test
    void lexicalOrSemanticMustRunAndTheSetCannotChangeAfterwards() {
        assertEquals("at least one of lexical and semantic must run", assertThrows(IllegalArgumentException.class,
                () -> RecallSettings.defaults().withSteps(RecallStep.GRAPH, RecallStep.CASCADE)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> RecallSettings.defaults().withSteps());
        Set<RecallStep> mine = EnumSet.of(RecallStep.SEMANTIC);
        RecallSettings s = new RecallSettings(mine, 0.5, 10, StopRule.DEFAULT, 1.0, 1, 1.0, 0.0);
        mine.add(RecallStep.LEXICAL);
        assertEquals(Set.of(RecallStep.SEMANTIC), s.steps(), "copied, not shared");
        assertThrows(UnsupportedOperationException.class, () -> s.steps().add(RecallStep.GRAPH));
    }
}
