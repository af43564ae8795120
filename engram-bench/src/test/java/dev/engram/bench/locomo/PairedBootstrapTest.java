package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.bench.locomo.LocomoEvaluation.Scored;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedBootstrapTest {
    private static List<Scored> recall5(double... values) {
        List<Scored> out = new ArrayList<>();
        for (double v : values) out.add(new Scored(new RetrievalMetrics.Scores(v, 0, 0), 0));
        return out;
    }

    @Test
    void identicalModesDifferByExactlyZero() {
        var a = recall5(0, 1, 0.5, 1, 0);
        var d = new PairedBootstrap(1).difference(a, a, RetrievalMetrics.Scores::recall5);
        assertEquals(0, d.mean());
        assertEquals(0, d.low());
        assertEquals(0, d.high());
        assertTrue(d.spansZero());
    }

    @Test
    void aConsistentGainHasAnIntervalAboveZero() {
        double[] base = new double[200];
        double[] better = new double[200];
        for (int i = 0; i < 200; i++) {
            base[i] = (i % 3) / 3.0;
            better[i] = base[i] + (i % 4 == 0 ? 0 : 0.2);
        }
        var d = new PairedBootstrap(7).difference(recall5(better), recall5(base), RetrievalMetrics.Scores::recall5);
        assertEquals(0.15, d.mean(), 1e-9);
        assertTrue(d.low() > 0.1 && d.high() < 0.2, d.toString());
        assertFalse(d.spansZero());
    }

    @Test
    void unpairedSamplesAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new PairedBootstrap(1).difference(recall5(1, 0), recall5(1), RetrievalMetrics.Scores::recall5));
    }
}
