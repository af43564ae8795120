package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.analysis.TagVocabulary;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import dev.engram.spi.Embedder;
import dev.engram.testing.ConceptEmbedder;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The semantic layer, cascade, fusion, graph expansion and vectors on write, with a deterministic embedder. */
class SemanticRecallTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemorySearchIndex index = new InMemorySearchIndex(store);
    private final ConceptEmbedder embedder = new ConceptEmbedder();
    private final Engine engine = engine(RecallSettings.defaults());

    private Engine engine(RecallSettings settings) {
        return new Engine(store, index, clock, TagVocabulary.builtInOnly(), embedder, settings);
    }

    private RememberResult remember(String key, String content) {
        return engine.remember(new RememberCommand(content, key, MemoryType.FACT, List.of("x"), null, null, null, null,
                null, null, null, false, null, null));
    }

    private static List<String> keys(RecallResult r) {
        return r.results().stream().map(x -> x.memory().key()).toList();
    }

    @Test
    void rememberStoresAVectorOfTheCurrentModelAndAmendReplacesIt() {
        RememberResult r = remember("car", "The automobile is parked outside");
        var stored = store.embedding(r.memory().id()).orElseThrow();
        assertEquals("concepts-v1", stored.modelId());
        engine.amend(new AmendCommand("car", null, "The dog sleeps outside", null, null));
        assertEquals(embedder.embed("The dog sleeps outside")[6], store.embedding(r.memory().id()).orElseThrow().vector()[6]);
        assertTrue(store.missingEmbeddings("concepts-v1", 10).isEmpty());
    }

    @Test
    void aWarningWithoutAVectorYetIsStillCheckedForAContradiction() {
        // just imported: the backfill has not embedded it, so the vector kNN cannot see it; its words still do
        dev.engram.memory.Memory warning = dev.engram.memory.Memory.builder().id("aaa000001").key("dont-use-mysql").zone("default")
                .type(MemoryType.WARNING).content("never use MySQL for this project").createdAt(clock.instant())
                .updatedAt(clock.instant()).build();
        engine.importAll(new ImportCommand(List.of(new ExportRecord(warning, List.of(), List.of())), ImportPolicy.KEEP_NEWER, false));
        assertTrue(store.embedding("aaa000001").isEmpty(), "imported without a vector");
        RememberResult claim = engine.remember(RememberCommand.builder("lets use MySQL for this project instead")
                .key("use-mysql").type(MemoryType.DECISION).build());
        assertTrue(store.embedding(claim.memory().id()).isPresent(), "the new memory has a vector: the kNN ran");
        assertEquals(List.of("dont-use-mysql"), claim.conflicts().stream().map(RememberResult.Conflict::key).toList());
    }

    @Test
    void semanticLayerFindsAParaphraseThatSharesNoWord() {
        remember("pg", "Postgres is sluggish under load");
        remember("pets", "The puppy needs a walk");
        RecallResult lexicalOnly = engine(RecallSettings.defaults().withSteps(RecallStep.LEXICAL))
                .recall(EngineFixture.query("database latency"), COST);
        assertTrue(lexicalOnly.results().isEmpty(), "no shared word: " + keys(lexicalOnly));
        RecallResult r = engine.recall(RecallQuery.builder("database latency").explain(true).build(), COST);
        assertEquals("pg", keys(r).get(0));
        assertTrue(r.results().get(0).reason().contains("semantic 1.00"), r.results().get(0).reason());
        assertTrue(r.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ")), r.layers().toString());
    }

    @Test
    void aModelThatScoresEveryPairHighIsJudgedOnItsOwnScale() {
        // e5-like: every cosine lifted to 0.7 + 0.3·cos, so unrelated texts score 0.7 and would all pass a raw floor
        Engine declared = new Engine(store, index, clock, TagVocabulary.builtInOnly(), new LiftedEmbedder(embedder, 0.7, 0.7),
                RecallSettings.defaults());
        declared.remember(new RememberCommand("Postgres is sluggish under load", "pg", MemoryType.FACT, List.of("x"), null,
                null, null, null, null, null, null, false, null, null));
        RememberResult other = declared.remember(new RememberCommand("The puppy needs a walk", "pets", MemoryType.FACT,
                List.of("x"), null, null, null, null, null, null, null, false, null, null));
        assertNull(other.nearDuplicate(), "unrelated memories are not near-duplicates on the model's own scale");
        assertEquals(List.of("pg"), keys(declared.recall(EngineFixture.query("database latency"), COST)));

        Engine raw = new Engine(store, index, clock, TagVocabulary.builtInOnly(), new LiftedEmbedder(embedder, 0.7, 0),
                RecallSettings.defaults());
        assertEquals(List.of("pg", "pets"), keys(raw.recall(EngineFixture.query("database latency"), COST)),
                "judged raw, the unrelated memory passes the floor: the scale is what keeps it out");
    }

    /** {@code inner}'s vectors with a constant component: cosines become {@code lift + (1 − lift)·cos}. */
    private record LiftedEmbedder(Embedder inner, double lift, double declared) implements Embedder {
        @Override
        public String modelId() {
            return "lifted-" + inner.modelId();
        }

        @Override
        public int dimensions() {
            return inner.dimensions() + 1;
        }

        @Override
        public float[] embed(String text) {
            float[] v = inner.embed(text);
            float[] out = java.util.Arrays.copyOf(v, v.length + 1);
            float a = (float) Math.sqrt(1 - lift);
            for (int i = 0; i < v.length; i++) out[i] = v[i] * a;
            out[v.length] = (float) Math.sqrt(lift);
            return out;
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return texts.stream().map(this::embed).toList();
        }

        @Override
        public double unrelatedCosine() {
            return declared;
        }
    }

    @Test
    void cascadeSkipsTheSemanticLayerWhenTheTopLexicalHitHoldsEveryQueryWord() {
        remember("a", "Release checklist: run the tests then tag");
        remember("b", "Release notes go in the changelog");
        RecallResult strong = engine.recall(RecallQuery.builder("release checklist").limit(2).build(), COST);
        assertTrue(strong.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped, top lexical hit holds 2/2 query words,"
                + " 100% of their idf")), strong.layers().toString());
        RecallResult weak = engine.recall(RecallQuery.builder("release puppy").limit(2).build(), COST);
        assertTrue(weak.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")), weak.layers().toString());
        RecallResult forced = engine.recall(RecallQuery.builder("release checklist").limit(2).mode(RecallMode.HYBRID).build(), COST);
        assertTrue(forced.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")),
                "mode hybrid forces every layer: " + forced.layers());
    }

    @Test
    void tooFewLexicalHitsDoNotStopALongerQuery() {
        remember("a", "Release checklist: run the tests then tag");
        RecallResult r = engine.recall(RecallQuery.builder("release checklist tests").limit(5).build(), COST);
        assertFalse(r.layers().stream().anyMatch(l -> l.contains("skipped")), r.layers().toString());
    }

    @Test
    void aShortQueryHeldEntirelyByTheTopHitStopsEvenWithOneHit() {
        remember("a", "Release checklist: run the tests then tag");
        remember("pets", "The puppy needs a walk");
        RecallResult r = engine.recall(RecallQuery.builder("release checklist").limit(5).build(), COST);
        assertTrue(r.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped, top lexical hit holds 2/2 query words")),
                r.layers().toString());
        assertEquals(List.of("a"), keys(r), "no semantic neighbours of an exact short query");
    }

    /**
     * The stop thresholds the next tests are written for, independent of the tuned defaults; three-word
     * queries may stop under it (the default lets only one or two words stop).
     */
    private static final StopRule HALF_IDF_MISSING_0_9 = new StopRule(0.5, 0.9, Double.POSITIVE_INFINITY, 0, 3);
    private static final RecallSettings STOP_HALF_IDF_MISSING_0_9 = RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9);

    /** Six notes about deploys and one release checklist: "deploy" is a word most memories hold, "release" one that few do. */
    private void deployNotesAndAChecklist() {
        for (int i = 0; i < 6; i++) remember("n" + i, "Deploy note " + i + " for the team");
        remember("a", "Release checklist: run the tests then tag");
    }

    @Test
    void cascadeStopsWhenTheTopHitLacksOnlyAWordMostMemoriesHold() {
        deployNotesAndAChecklist();
        // by word count the top hit holds only 2 of 3; by idf it holds 94% and lacks 0.07 of an unseen word
        RecallResult r = engine(STOP_HALF_IDF_MISSING_0_9).recall(RecallQuery.builder("release checklist deploy").limit(3).build(), COST);
        assertTrue(r.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped, top lexical hit holds 2/3 query words,"
                + " 94% of their idf; the rest weigh 0.07 of an unseen word; it ")), r.layers().toString());
        assertEquals("a", keys(r).get(0));
    }

    @Test
    void byDefaultOnlyAQueryOfOneOrTwoWordsMayStopTheCascade() {
        deployNotesAndAChecklist();
        RecallResult three = engine.recall(RecallQuery.builder("release checklist deploy").limit(3).build(), COST);
        assertTrue(three.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")),
                "a longer query is a question or a description: the semantic layer runs " + three.layers());
        assertNotNull(three.stop(), "the signal is read all the same");
        RecallResult two = engine.recall(RecallQuery.builder("release checklist").limit(3).build(), COST);
        assertTrue(two.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped")), two.layers().toString());
    }

    @Test
    void cascadeRunsTheSemanticLayerWhenTheTopHitLacksAWordNoMemoryHolds() {
        deployNotesAndAChecklist();
        // 55% of the idf is held, over the 50% share, but "puppy" weighs a whole unseen word: likely a paraphrase
        RecallResult r = engine(STOP_HALF_IDF_MISSING_0_9).recall(RecallQuery.builder("release checklist puppy").limit(1).build(), COST);
        assertTrue(r.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")), r.layers().toString());
        RecallResult lenient = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withMissing(1.0)))
                .recall(RecallQuery.builder("release checklist puppy").limit(1).build(), COST);
        assertTrue(lenient.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped")), lenient.layers().toString());
    }

    @Test
    void cascadeStopsWhenTheTopHitStandsOutFromTheNextEvenIfItLacksAWord() {
        deployNotesAndAChecklist();
        remember("b", "Release notes go in the changelog");
        // "puppy" weighs a whole unseen word, so the idf rule runs L3; the checklist outscores the release notes
        String query = "release checklist puppy";
        RecallResult byIdf = engine(STOP_HALF_IDF_MISSING_0_9).recall(RecallQuery.builder(query).limit(2).build(), COST);
        assertTrue(byIdf.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")),
                byIdf.layers().toString());
        RecallResult byMargin = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withMargin(1.5).withMarginMissing(2)))
                .recall(RecallQuery.builder(query).limit(2).build(), COST);
        String skipped = byMargin.layers().stream().filter(l -> l.startsWith("L3 semantic: skipped")).findFirst()
                .orElseThrow(() -> new AssertionError(byMargin.layers().toString()));
        StopSignal signal = byMargin.stop();
        assertEquals(2, signal.found());
        assertEquals(3, signal.words());
        double margin = signal.margin();
        assertTrue(margin >= 1.5, skipped);
        assertTrue(skipped.endsWith(String.format(java.util.Locale.ROOT, "it scores %.2f× the next", margin)), skipped);
        RecallResult exactly = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withMargin(margin).withMarginMissing(2)))
                .recall(RecallQuery.builder(query).limit(2).build(), COST);
        assertTrue(exactly.layers().stream().anyMatch(l -> l.contains("skipped")), "at least: " + exactly.layers());
        RecallResult stricter = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withMargin(Math.nextUp(margin))
                .withMarginMissing(2))).recall(RecallQuery.builder(query).limit(2).build(), COST);
        assertTrue(stricter.layers().stream().noneMatch(l -> l.contains("skipped")), "not above: " + stricter.layers());
        assertEquals(signal, stricter.stop(), "the signal is read whether or not the rule stops");
        assertNull(engine.recall(RecallQuery.builder(query).mode(RecallMode.HYBRID).build(), COST).stop(),
                "mode hybrid runs every layer: no stop rule, no signal");
        RecallResult capped = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withMargin(1.5).withMarginMissing(0.5)))
                .recall(RecallQuery.builder(query).limit(2).build(), COST);
        assertTrue(capped.layers().stream().noneMatch(l -> l.contains("skipped")),
                "a decisive hit that lacks more than the cap (one unseen word) runs L3: " + capped.layers());
    }

    @Test
    void cascadeRunsTheSemanticLayerWhenTheTopHitHoldsTooSmallAShareOfTheIdf() {
        deployNotesAndAChecklist();
        RecallResult r = engine(RecallSettings.defaults().withStop(HALF_IDF_MISSING_0_9.withCoverage(0.95)))
                .recall(RecallQuery.builder("release checklist deploy").limit(3).build(), COST);
        assertTrue(r.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: ") && !l.contains("skipped")), r.layers().toString());
    }

    @Test
    void centralityRewardsAMemoryOthersLinkToAndExplainSaysWhy() {
        remember("hub", "Auth service issues login tokens");
        remember("leaf", "Auth service issues login cookies");
        for (int i = 0; i < 3; i++) {
            remember("dep" + i, "Billing job " + i + " runs nightly");
            engine.link(new LinkCommand("dep" + i, "hub", EdgeType.DEPENDS_ON, null, false));
        }
        RecallResult r = engine.recall(RecallQuery.builder("auth service login").explain(true).build(), COST);
        RecalledMemory hub = r.results().stream().filter(x -> x.memory().key().equals("hub")).findFirst().orElseThrow();
        RecalledMemory leaf = r.results().stream().filter(x -> x.memory().key().equals("leaf")).findFirst().orElseThrow();
        double expected = RecallSettings.defaults().centralityWeight() * Math.log(4) / Math.log(17);
        assertEquals(expected, hub.contributions().stream().filter(c -> c.name().equals("centrality")).findFirst().orElseThrow().value(), 1e-9);
        assertTrue(hub.reason().contains(String.format(java.util.Locale.ROOT, "linked to 3 memories (%+.2f)", expected)), hub.reason());
        assertTrue(leaf.contributions().stream().noneMatch(c -> c.name().equals("centrality")), "no links, no centrality");
        assertEquals(List.of("hub", "leaf"), keys(r).subList(0, 2), "equal matches: the hub ranks first");

        RecallResult noGraph = engine(RecallSettings.defaults().withSteps(RecallStep.LEXICAL, RecallStep.SEMANTIC))
                .recall(RecallQuery.builder("auth service login").build(), COST);
        assertTrue(noGraph.results().stream().flatMap(x -> x.contributions().stream()).noneMatch(c -> c.name().equals("centrality")),
                "centrality belongs to the graph layer");
    }

    @Test
    void whileTheModelLoadsRecallIsLexicalAndSaysSo() {
        embedder.setReady(false);
        RememberResult r = remember("pg", "Postgres is sluggish under load");
        assertTrue(store.embedding(r.memory().id()).isEmpty(), "no vector while loading");
        RecallResult recall = engine.recall(RecallQuery.builder("postgres database timeouts").explain(true).build(), COST);
        assertEquals(List.of("pg"), keys(recall));
        assertEquals(List.of("semantic layer not ready (embedding model still loading): lexical results only"), recall.notes());

        embedder.setReady(true);
        assertEquals(1, engine.embedMissing(10), "the backfill embeds what was written meanwhile");
        assertEquals(0, engine.embedMissing(10));
        assertTrue(store.embedding(r.memory().id()).isPresent());
    }

    @Test
    void exactKeyIsLayerOneAndLeads() {
        remember("deploy-steps", "Ship with the release script");
        remember("other", "deploy steps are documented in the wiki");
        RecallResult r = engine.recall(RecallQuery.builder("deploy-steps").explain(true).build(), COST);
        assertEquals("deploy-steps", keys(r).get(0));
        assertTrue(r.layers().get(0).startsWith("L1 exact: 'deploy-steps' is a key or id"), r.layers().toString());
        assertTrue(r.results().get(0).reason().contains("exact key/id"), r.results().get(0).reason());
    }

    @Test
    void graphExpansionBringsLinkedMemoriesWithHalvedWeight() {
        remember("symptom", "Checkout page times out");
        remember("cause", "Connection pool exhausted by a leaked transaction");
        engine.link(new LinkCommand("symptom", "cause", EdgeType.CAUSED_BY, null, false));
        RecallResult withGraph = engine.recall(RecallQuery.builder("checkout page times out").explain(true).build(), COST);
        assertEquals(List.of("symptom", "cause"), keys(withGraph));
        RecalledMemory cause = withGraph.results().get(1);
        double graph = cause.contributions().stream().filter(c -> c.name().equals("graph")).findFirst().orElseThrow().value();
        double seed = withGraph.results().get(0).relevance();
        assertEquals(seed * 0.5 * RecallSettings.defaults().graphWeight(), graph, 1e-9, "seed × 0.5^1 × graph weight");
        assertTrue(cause.reason().contains("linked: caused_by from"), cause.reason());
        RecallResult noGraph = engine(RecallSettings.defaults().withSteps(RecallStep.LEXICAL, RecallStep.SEMANTIC))
                .recall(EngineFixture.query("checkout page times out"), COST);
        assertFalse(keys(noGraph).contains("cause") && noGraph.results().get(keys(noGraph).indexOf("cause")).relevance() > 0.5);
    }

    @Test
    void aMemoryLinkedToTwoHitsGetsWhatBothPassAndNamesTheStrongerOne() {
        remember("symptom", "Checkout page times out");
        remember("report", "Checkout page times out for customers");
        remember("weak", "The page"); // the weakest hit scales to 0, so both seeds above pass a share
        remember("cause", "Connection pool exhausted by a leaked transaction");
        engine.link(new LinkCommand("symptom", "cause", EdgeType.CAUSED_BY, null, false));
        double fromOne = graphOf("cause");
        engine.link(new LinkCommand("report", "cause", EdgeType.RELATED, null, false));
        double fromTwo = graphOf("cause");
        assertTrue(fromTwo > fromOne, "the second hit's share is added: " + fromOne + " then " + fromTwo);
        assertTrue(fromTwo - fromOne <= fromOne + 1e-9, "the weaker hit passes less than the stronger");
        RecalledMemory cause = recalled("cause");
        assertTrue(cause.reason().contains("linked: caused_by from " + store.getByKey("default", "symptom").orElseThrow().id()),
                cause.reason());
    }

    private RecalledMemory recalled(String key) {
        return engine.recall(RecallQuery.builder("checkout page times out").explain(true).build(), COST).results().stream()
                .filter(m -> m.memory().key().equals(key)).findFirst().orElseThrow();
    }

    private double graphOf(String key) {
        return recalled(key).contributions().stream().filter(c -> c.name().equals("graph")).findFirst().orElseThrow().value();
    }

    @Test
    void semanticNearDuplicatesAreFlaggedAndMergedOnRequest() {
        remember("fast-car", "The automobile is quick");
        RememberResult again = engine.remember(new RememberCommand("The vehicle is speedy", null, MemoryType.FACT, List.of("x"),
                null, null, null, null, null, null, null, false, null, null));
        assertNotNull(again.nearDuplicate());
        assertEquals("meaning", again.nearDuplicate().basis());
        assertEquals("fast-car", again.nearDuplicate().key());
        engine.forget(new ForgetCommand(again.memory().key(), null, ForgetAction.HARD));
        long before = store.count();
        RememberResult merged = engine.remember(new RememberCommand("The car is fast", null, MemoryType.FACT, List.of("y"),
                null, null, null, null, null, null, null, false, null, null, true));
        assertEquals(RememberResult.Outcome.MERGED, merged.outcome());
        assertEquals("fast-car", merged.memory().key());
        assertTrue(merged.memory().tags().contains("y"));
        assertEquals(before, store.count(), "merged, not added");
        RememberResult unrelated = remember("pets", "The puppy needs a walk");
        assertNull(unrelated.nearDuplicate());
    }

    @Test
    void afterAModelChangeReindexReplacesEveryVectorAndModelsAreNeverCompared() {
        remember("pg", "Postgres is sluggish under load");
        remember("pets", "The puppy needs a walk");
        Embedder other = QueryLog.renamed(embedder, "concepts-v2");
        Engine next = new Engine(store, index, clock, TagVocabulary.builtInOnly(), other, RecallSettings.defaults());
        assertEquals(2, store.missingEmbeddings("concepts-v2", 10).size(), "vectors of v1 do not count for v2");
        RecallResult before = next.recall(RecallQuery.builder("database latency").build(), COST);
        assertTrue(before.results().isEmpty(), "v2 finds no v2 vector, and never compares with v1: " + keys(before));
        assertEquals(2, next.embedMissing(1) + next.embedMissing(10));
        assertEquals(0, next.embedMissing(10));
        assertEquals("concepts-v2", store.embedding(store.getByKey("default", "pg").orElseThrow().id()).orElseThrow().modelId());
        assertEquals(List.of("pg"), keys(next.recall(RecallQuery.builder("database latency").limit(1).build(), COST)));
        assertTrue(index.searchVector(new dev.engram.spi.VectorQuery(embedder.embed("database latency"), "concepts-v1",
                null, null, null, null, null, null, 5)).isEmpty(), "no vector of the old model is left in the index");
    }

    @Test
    void theQueryIsEmbeddedAsAQueryAndMemoriesAsPassages() {
        List<String> queries = new java.util.ArrayList<>();
        // a model trained with query/passage prefixes: the engine must say which one it embeds
        Embedder recording = new QueryLog(embedder, queries, "database latency");
        Engine e = new Engine(store, index, clock, TagVocabulary.builtInOnly(), recording, RecallSettings.defaults());
        e.remember(new RememberCommand("Postgres is sluggish under load", "pg", MemoryType.FACT, List.of("x"), null, null,
                null, null, null, null, null, false, null, null));
        RecallResult r = e.recall(RecallQuery.builder("database latency").mode(RecallMode.HYBRID).build(), COST);
        assertEquals(List.of("pg"), keys(r));
        assertEquals(List.of("database latency"), queries);
    }

    @Test
    void aRepeatedQueryIsEmbeddedOnceAndRankedAlike() {
        List<String> queries = new java.util.ArrayList<>();
        Embedder counting = new QueryLog(embedder, queries, "database latency");
        Engine e = new Engine(store, index, clock, TagVocabulary.builtInOnly(), counting, RecallSettings.defaults());
        e.remember(new RememberCommand("Postgres is sluggish under load", "pg", MemoryType.FACT, List.of("x"), null, null,
                null, null, null, null, null, false, null, null));
        e.remember(new RememberCommand("The automobile is parked outside", "car", MemoryType.FACT, List.of("x"), null, null,
                null, null, null, null, null, false, null, null));
        RecallResult first = e.recall(RecallQuery.builder("database latency").mode(RecallMode.HYBRID).build(), COST);
        RecallResult again = e.recall(RecallQuery.builder("database latency").mode(RecallMode.HYBRID).build(), COST);
        assertEquals(List.of("pg"), keys(first));
        assertEquals(keys(first), keys(again));
        // the same vector, the same match (the score also holds the first recall's access, so it moves)
        assertEquals(match(first), match(again), 1e-9);
        e.recall(RecallQuery.builder("vehicle").mode(RecallMode.HYBRID).build(), COST);
        assertEquals(List.of("database latency", "vehicle"), queries, "the repeat was not embedded again");
    }

    private static double match(RecallResult r) {
        return r.results().get(0).contributions().stream().filter(c -> c.name().equals("match")).findFirst().orElseThrow().value();
    }

    /**
     * {@code inner}'s vectors under {@code modelId} (another id is what a model change looks like to the store), each
     * query it embeds noted in {@code queries}; {@code notAPassage}, when set, must never be embedded as a passage.
     */
    private record QueryLog(Embedder inner, String modelId, List<String> queries, String notAPassage) implements Embedder {
        QueryLog(Embedder inner, List<String> queries, String notAPassage) {
            this(inner, inner.modelId(), queries, notAPassage);
        }

        /** The same vectors under another model id. */
        static QueryLog renamed(Embedder inner, String modelId) {
            return new QueryLog(inner, modelId, new java.util.ArrayList<>(), null);
        }

        @Override
        public int dimensions() {
            return inner.dimensions();
        }

        @Override
        public float[] embed(String text) {
            if (text.equals(notAPassage)) throw new AssertionError("the query was embedded as a passage");
            return inner.embed(text);
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return inner.embedAll(texts);
        }

        @Override
        public float[] embedQuery(String query) {
            queries.add(query);
            return inner.embed(query);
        }
    }
}
