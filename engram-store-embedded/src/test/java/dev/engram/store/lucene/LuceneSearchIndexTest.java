package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.SearchIndexContract;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class LuceneSearchIndexTest extends SearchIndexContract {
    @Override
    protected Opened open(Path dir, Clock clock) {
        SqliteMemoryStore store = SqliteMemoryStore.open(dir);
        return new Opened(store, LuceneSearchIndex.open(store, dir.resolve("index")));
    }

    @Override
    protected boolean supportsKorean() {
        return true;
    }

    private int extraStores;

    /** A fresh store and index holding only {@code memories}, searched once. */
    private List<String> searchAfterInserting(String query, Memory... memories) {
        try (Opened o = open(dir.resolve("extra-" + ++extraStores), clock)) {
            o.store().write(tx -> {
                for (Memory m : memories) tx.insert(m);
                return null;
            });
            o.index().catchUp();
            return o.index().search(IndexQuery.text(query, "work", 10)).stream().map(IndexHit::id).toList();
        }
    }

    private Memory memory(long n, String content) {
        return MemoryFixtures.minimal(clock, n, "work", content).build();
    }

    /** A zone filter left out while one zone held everything must come back when a second zone appears. */
    @Test
    void aFilterLeftOutWhileEveryMemoryPassedItReturnsWhenOneDoesNot() {
        Memory work = memory(1, "shared word in work");
        Memory home = MemoryFixtures.minimal(clock, 2, "home", "shared word at home").build();
        try (Opened o = open(dir.resolve("coverage"), clock)) {
            o.store().write(tx -> {
                tx.insert(work);
                return null;
            });
            assertEquals(List.of(work.id()), ids(o.index().search(IndexQuery.text("shared", "work", 10))),
                    "one zone: the zone filter is left out");
            o.store().write(tx -> {
                tx.insert(home);
                tx.putEmbedding(home.id(), new StoredEmbedding("m", new float[] {1f, 0f}));
                return null;
            });
            assertEquals(List.of(work.id()), ids(o.index().search(IndexQuery.text("shared", "work", 10))));
            assertEquals(List.of(home.id()), ids(o.index().search(IndexQuery.text("shared", "home", 10))));
            assertEquals(List.of(), ids(o.index().searchVector(new VectorQuery(new float[] {1f, 0f}, "m",
                    java.util.Set.of("work"), null, null, null, null, null, 5))), "the home vector stays out of a work search");
        }
    }

    /** A key the engine derived from the content repeats the content's first words: it is not weighed as a key (layout 4). */
    @Test
    void aKeyDerivedFromTheContentIsNotWeighedAsAKey() {
        String content = "harbour lights flicker at dusk";
        Memory derived = memory(1, content).toBuilder().key(MemoryRules.derivedKey(content, 1)).build();
        Memory second = memory(2, content).toBuilder().key(MemoryRules.derivedKey(content, 2)).build();
        Memory given = memory(3, content).toBuilder().key("harbour-watch").build();
        Memory unrelatedKey = memory(4, content).toBuilder().key("evening-note").build();
        try (Opened o = open(dir.resolve("derived"), clock)) {
            o.store().write(tx -> {
                for (Memory m : List.of(derived, second, given, unrelatedKey)) tx.insert(m);
                return null;
            });
            o.index().catchUp();
            java.util.Map<String, Double> score = new java.util.HashMap<>();
            for (IndexHit h : o.index().search(IndexQuery.text("harbour", "work", 10))) score.put(h.id(), h.score());
            assertEquals(score.get(unrelatedKey.id()), score.get(derived.id()), 1e-9, "a derived key adds nothing to the content");
            assertTrue(score.get(given.id()) > score.get(derived.id()) * 2, "a key the caller chose still weighs: " + score);
            assertEquals(score.get(unrelatedKey.id()), score.get(second.id()), 1e-9, "nor does a suffixed one (-2)");
        }
    }

    /** Accents fold on both sides (layout 5): a name is found however it is typed. */
    @Test
    void accentedWordsAreFoundWithOrWithoutTheirAccents() {
        Memory cafe = memory(1, "Café Müller opens at nine");
        Memory zoe = memory(2, "Zoë García reviewed the résumé");
        Memory korean = memory(3, "김철수 카페 운영");
        Memory plain = memory(4, "the cafe downstairs serves resume coffee");
        try (Opened o = open(dir.resolve("accents"), clock)) {
            o.store().write(tx -> {
                for (Memory m : List.of(cafe, zoe, korean, plain)) tx.insert(m);
                return null;
            });
            o.index().catchUp();
            java.util.function.Function<String, java.util.Set<String>> found = q ->
                    java.util.Set.copyOf(ids(o.index().search(IndexQuery.text(q, "work", 10))));
            assertEquals(java.util.Set.of(cafe.id()), found.apply("muller"));
            assertEquals(java.util.Set.of(cafe.id()), found.apply("Müller"));
            assertEquals(java.util.Set.of(cafe.id(), plain.id()), found.apply("café"));
            assertEquals(java.util.Set.of(cafe.id(), plain.id()), found.apply("cafe"));
            assertEquals(java.util.Set.of(zoe.id()), found.apply("zoe garcia"));
            assertEquals(java.util.Set.of(zoe.id(), plain.id()), found.apply("resume"));
            assertEquals(java.util.Set.of(korean.id()), found.apply("김철수"), "Hangul has no ASCII form and is found as before");
        }
    }

    /** A key of a fixed word and a hash (a Korean name's) has no words: its "note" must not match (layout 5). */
    @Test
    void aKeyOfAFixedWordAndAHashIsNotSearched() {
        Memory korean = memory(1, "김철수 works on billing").toBuilder().key(MemoryRules.slug("김철수")).build();
        Memory toon = memory(2, "缓存策略 for billing").toBuilder().key("entry-a1b2c3").build();
        Memory note = memory(3, "a note about billing").toBuilder().key("billing-note").build();
        assertTrue(korean.key().startsWith("note-"), "the test's own premise: " + korean.key());
        assertEquals(List.of(note.id()), searchAfterInserting("note", korean, toon, note));
        assertEquals(List.of(), searchAfterInserting("entry", korean, toon, note));
    }

    private static List<String> ids(List<IndexHit> hits) {
        return hits.stream().map(IndexHit::id).toList();
    }

    @Test
    void aVectorTooWideForTheIndexIsLeftOutWithoutStallingCatchUp() {
        Memory wide = memory(1, "a memory with an oversized vector");
        Memory later = memory(2, "written after the first one");
        try (Opened o = open(dir.resolve("wide"), clock)) {
            o.store().write(tx -> {
                tx.insert(wide);
                tx.putEmbedding(wide.id(), new StoredEmbedding("huge", new float[VectorCodec.MAX_DIMENSIONS + 1]));
                tx.insert(later);
                tx.putEmbedding(later.id(), new StoredEmbedding("m", new float[] {1f, 0f}));
                return null;
            });
            assertEquals(o.store().headSeq(), o.index().catchUp());
            assertEquals(List.of(wide.id()), o.index().search(IndexQuery.text("oversized", "work", 10))
                    .stream().map(IndexHit::id).toList(), "the memory itself is indexed");
            assertEquals(List.of(later.id()), o.index().searchVector(new VectorQuery(new float[] {1f, 0f}, "m",
                    null, null, null, null, null, null, 5)).stream().map(IndexHit::id).toList());
        }
    }

    @Test
    void aVectorWiderThanLucenesDefaultLimitIsIndexedAndFound() {
        Memory hosted = memory(1, "embedded by a hosted model");
        float[] v = new float[3072]; // 3072 dimensions, as hosted models give; Lucene's own formats stop at 1024
        v[2000] = 1f;
        try (Opened o = open(dir.resolve("hosted"), clock)) {
            o.store().write(tx -> {
                tx.insert(hosted);
                tx.putEmbedding(hosted.id(), new StoredEmbedding("hosted-model", v));
                return null;
            });
            assertEquals(o.store().headSeq(), o.index().catchUp());
            assertEquals(List.of(hosted.id()), o.index().searchVector(new VectorQuery(v, "hosted-model",
                    null, null, null, null, null, null, 5)).stream().map(IndexHit::id).toList());
        }
    }

    @Test
    void japaneseAndChineseMatchThroughBigrams() {
        Memory ja = memory(1, "東京のサーバーで認証に失敗しました。");
        Memory zh = memory(2, "用户偏好使用深色主题。");
        assertEquals(List.of(ja.id()), searchAfterInserting("認証", ja, zh));
        assertEquals(List.of(zh.id()), searchAfterInserting("深色主题", ja, zh));
    }

    @Test
    void aKeyMatchOutranksTheSameWordInContent() {
        Memory inContent = memory(1, "the redis cluster restarts nightly after backups");
        Memory inKey = MemoryFixtures.minimal(clock, 2, "work", "the cache cluster restarts nightly after backups")
                .key("redis-restarts").build();
        assertEquals(List.of(inKey.id(), inContent.id()), searchAfterInserting("redis", inContent, inKey));
    }

    @Test
    void aContentMatchOutranksTheSameWordInTheFilePath() {
        Memory inFile = MemoryFixtures.minimal(clock, 1, "work", "restarts nightly after backups")
                .file("ops/scheduler/cron.yaml").build();
        Memory inContent = memory(2, "scheduler restarts nightly after backups");
        assertEquals(List.of(inContent.id(), inFile.id()), searchAfterInserting("scheduler", inFile, inContent));
    }

    @Test
    void aMemoryAboutTheQuerysSubjectOutranksOneThatSharesOnlyItsFunctionWords() {
        Memory chatter = memory(1, "what did you do there? did you see what they did?");
        Memory subject = memory(2, "the deploy to staging waits for the nightly backup");
        Memory other = memory(3, "release notes are published on the wiki");
        assertEquals(subject.id(), searchAfterInserting("what did you do about the deploy", chatter, subject, other).get(0));
    }
}
