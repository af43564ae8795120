package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.bench.BenchEmbedder;
import dev.engram.engine.RecallSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocomoSettingsTest {

    @Test
    void flagsOverrideTheDefaults() {
        RecallSettings s = LocomoBench.settings(new String[] {"--depth", "40", "--alpha", "0.5", "--graph-hops", "1",
                "--stop-margin", "Infinity"});
        assertEquals(40, s.depth());
        assertEquals(Double.POSITIVE_INFINITY, s.stop().margin(), "the margin part of the stop rule can be turned off");
        assertEquals(new dev.engram.engine.StopRule(0.4, 0.8, 2.0, 1.5), LocomoBench.settings(new String[] {
                "--stop-coverage", "0.4", "--stop-missing", "0.8", "--stop-margin", "2", "--stop-margin-missing", "1.5"}).stop());
        assertEquals(0.5, s.lexicalWeight());
        assertEquals(1, s.graphHops());
        assertEquals(RecallSettings.defaults(), LocomoBench.settings(new String[] {"--conversations", "0,1"}));
    }

    @Test
    void aValueThatIsNotANumberIsNamedWithItsFlag() {
        assertEquals("--depth must be a whole number, got 'x'", rejected("--depth", "x"));
        assertEquals("--depth must be a whole number, got '40.5'", rejected("--depth", "40.5"));
        assertEquals("--alpha must be a number, got 'half'", rejected("--alpha", "half"));
    }

    @Test
    void aNumberOutOfRangeGetsTheSettingsOwnMessage() {
        assertEquals("depth must be >= 10, got 5", rejected("--depth", "5"));
        assertEquals("lexicalWeight must be 0..1, got 1.5", rejected("--alpha", "1.5"));
        assertEquals("lexicalWeight must be 0..1, got NaN", rejected("--alpha", "NaN"));
        assertEquals("graphWeight must be a finite number >= 0, got -1.0", rejected("--graph-weight", "-1"));
        assertEquals("graphWeight must be a finite number >= 0, got Infinity", rejected("--graph-weight", "Infinity"));
        assertEquals("boostScale must be a finite number >= 0, got NaN", rejected("--boost-scale", "NaN"));
        assertEquals("centralityWeight must be a finite number >= 0, got NaN", rejected("--centrality-weight", "NaN"));
        assertEquals("stop margin must be >= 1, got 0.5", rejected("--stop-margin", "0.5"));
        assertEquals("stop margin must be >= 1, got NaN", rejected("--stop-margin", "NaN"));
        assertEquals("stop margin missing must be >= 0, got -1.0", rejected("--stop-margin-missing", "-1"));
        assertEquals("stop coverage must be 0..1, got 2.0", rejected("--stop-coverage", "2"));
        assertEquals("stop missing must be >= 0, got -0.5", rejected("--stop-missing", "-0.5"));
        assertEquals("--stop-margin-missing must be a number, got 'two'", rejected("--stop-margin-missing", "two"));
    }

    @Test
    void theCentralitySweepIsReadAndCheckedWithTheOtherFlags() {
        RecallSettings d = RecallSettings.defaults();
        assertEquals(java.util.List.of(0.0, 0.1, 0.2), LocomoBench.centralityWeights(new String[] {"--centrality-sweep", "0, 0.1,0.2"}, d));
        assertEquals(java.util.List.of(), LocomoBench.centralityWeights(new String[] {"--stop-sweep"}, d));
        assertEquals("--centrality-sweep must be a number, got 'x'", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.centralityWeights(new String[] {"--centrality-sweep", "0.1,x"}, d)).getMessage());
        assertEquals("centralityWeight must be a finite number >= 0, got -0.1", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.centralityWeights(new String[] {"--centrality-sweep", "-0.1"}, d)).getMessage());
    }

    @Test
    void conversationsAndTurnTextAreCheckedBeforeAnythingRuns() {
        assertEquals(java.util.Set.of(0, 1), LocomoBench.conversations(new String[] {"--conversations", "0, 1"}));
        assertEquals("--conversations must be a whole number, got 'one'", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.checkFlags(new String[] {"--conversations", "0,one"})).getMessage());
        assertEquals("--ingest must be one or more (comma-separated) of [plain, enriched, sessionless, timed, keyless], or both, got 'fancy'", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.checkFlags(new String[] {"--ingest", "fancy"})).getMessage());
        assertEquals(List.of(LocomoConversation.Ingest.PLAIN), LocomoBench.ingests(new String[0]));
        assertEquals(List.of(LocomoConversation.Ingest.PLAIN, LocomoConversation.Ingest.KEYLESS),
                LocomoBench.ingests(new String[] {"--ingest", "plain,keyless"}));
        assertEquals(List.of(LocomoConversation.Ingest.PLAIN, LocomoConversation.Ingest.ENRICHED),
                LocomoBench.ingests(new String[] {"--ingest", "both"}));
        assertEquals(List.of(LocomoConversation.Ingest.PLAIN, LocomoConversation.Ingest.SESSIONLESS),
                LocomoBench.ingests(new String[] {"--ingest", "plain,sessionless"}));
        assertEquals("tools", LocomoBench.via(new String[0]));
        assertEquals("--via must be one of [tools, mcp, engine], got 'http'", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.checkFlags(new String[] {"--via", "http"})).getMessage());
        assertEquals("--alpha applies to --via engine or tools; --via mcp runs the server's own settings",
                assertThrows(IllegalArgumentException.class,
                        () -> LocomoBench.checkFlags(new String[] {"--via", "mcp", "--alpha", "0.5"})).getMessage());
        LocomoBench.checkFlags(new String[] {"--via", "tools", "--alpha", "0.5"}); // a dev sweep of the tools, one setting per run
        assertEquals("--stop-sweep applies to --via engine only; the product path (--via tools) runs one setting at a time",
                assertThrows(IllegalArgumentException.class,
                        () -> LocomoBench.checkFlags(new String[] {"--stop-sweep"})).getMessage());
        assertEquals("--via mcp runs a model bundled in the jar (e5-small-v2 or minilm); --embedder bge-small-en-v1.5 works with --via tools or engine",
                assertThrows(IllegalArgumentException.class,
                        () -> LocomoBench.checkFlags(new String[] {"--via", "mcp", "--embedder", "bge-small-en-v1.5"})).getMessage());
        assertEquals("--embedder must be one of [minilm, e5-small-v2, bge-small-en-v1.5], got 'bert'",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.checkFlags(new String[] {"--embedder", "bert"}))
                        .getMessage());
        assertEquals(BenchEmbedder.E5_SMALL_V2, LocomoBench.embedder(new String[] {"--embedder", "E5-small-v2"}));
        assertEquals(BenchEmbedder.E5_SMALL_V2, LocomoBench.embedder(new String[0]), "the server's default model");
    }

    @Test
    void anUnknownFlagOrAMissingValueStopsTheRunBeforeItStarts() {
        String typo = assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.checkFlags(new String[] {"--alhpa", "0.5"})).getMessage();
        assertTrue(typo.startsWith("unknown flag '--alhpa'; the flags are [--alpha, --audit,"), typo);
        assertEquals("--alpha needs a value", assertThrows(IllegalArgumentException.class,
                () -> LocomoBench.checkFlags(new String[] {"--stop-sweep", "--alpha"})).getMessage());
        LocomoBench.checkFlags(new String[] {"--via", "engine", "--stop-sweep", "--alpha", "0.5", "--conversations", "0,1"}); // accepted
    }

    private static String rejected(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(args)).getMessage();
    }
}
