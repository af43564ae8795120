package dev.engram.spi;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every clause of the {@link SearchIndex} and {@link IndexQuery} javadoc, as tests. An index
 * implementation extends this class and supplies {@link #open}, which opens a store and the index
 * derived from it in {@code dir}. The vector clauses, and the fixture, are in {@link SearchIndexVectorContract}.
 */
public abstract class SearchIndexContract extends SearchIndexVectorContract {

    /** Whether the index analyses Korean (particles split off); whitespace tokenizers cannot. */
    protected boolean supportsKorean() {
        return false;
    }

    private List<String> ids(IndexQuery q) {
        return index().search(q).stream().map(IndexHit::id).toList();
    }

    private List<String> ids(String text) {
        return ids(new IndexQuery(text, null, null, null, null, null, null, 20));
    }

    @Test
    void catchUpMakesInsertsSearchableAndReportsTheHead() {
        Memory a = insert(memory("The deploy pipeline uses blue green releases").build());
        Memory b = insert(memory("Postgres vacuum runs nightly").build());
        assertEquals(store().headSeq(), index().catchUp());
        assertEquals(store().headSeq(), index().indexedSeq());
        assertEquals(List.of(a.id()), ids("pipeline"));
        assertEquals(List.of(b.id()), ids("VACUUM"));
        assertEquals(List.of(), ids("kubernetes"));
        assertEquals(store().headSeq(), index().catchUp(), "catching up twice changes nothing");
    }

    @Test
    void updatesReplaceTheOldText() {
        Memory a = insert(memory("caching uses memcached").build());
        index().catchUp();
        store().write(tx -> {
            tx.update(a.toBuilder().content("caching uses redis").build());
            return null;
        });
        index().catchUp();
        assertEquals(List.of(), ids("memcached"));
        assertEquals(List.of(a.id()), ids("redis"));
        assertEquals(List.of(a.id()), ids("caching"), "an update leaves one document, not two");
    }

    @Test
    void deletesDisappear() {
        Memory a = insert(memory("temporary scaffolding note").build());
        Memory b = insert(memory("permanent scaffolding note").build());
        index().catchUp();
        store().write(tx -> tx.delete(a.id()));
        index().catchUp();
        assertEquals(List.of(b.id()), ids("scaffolding"));
        assertEquals(List.of(), ids("temporary"));
    }

    @Test
    void keyTagsAndFileAreSearchableToo() {
        Memory m = insert(memory("something unrelated").key("redis-timeout").tags(List.of("infra"))
                .file("conf/nginx.conf").build());
        index().catchUp();
        assertEquals(List.of(m.id()), ids("timeout"));
        assertEquals(List.of(m.id()), ids("infra"));
        assertEquals(List.of(m.id()), ids("nginx"));
    }

    @Test
    void contentWordsMatchTheContentOnly() {
        Memory inKey = insert(memory("something unrelated").key("redis-timeout").tags(List.of("infra")).build());
        Memory inContent = insert(memory("the redis timeout again").build());
        index().catchUp();
        IndexQuery q = new IndexQuery("redis timeout infra", Set.of(inKey.zone()), Set.of(), Set.of(), Set.of(),
                null, null, 10, IndexQuery.Match.CONTENT_WORDS);
        assertEquals(List.of(inContent.id()), index().search(q).stream().map(IndexHit::id).toList());
        assertEquals(Set.of(inKey.id(), inContent.id()), Set.copyOf(ids("redis timeout infra")), "all fields by default");
    }

    @Test
    void filtersRestrictZoneTypeTagsStatusAndCreationTime() {
        Instant t0 = clock.instant();
        Memory work = insert(memory("shared word").type(MemoryType.ERROR).tags(List.of("a", "b")).build());
        Memory home = insert(memory("shared word").zone("home").type(MemoryType.FACT).tags(List.of("a")).build());
        Memory draft = insert(memory("shared word").type(MemoryType.DECISION).status(MemoryStatus.DRAFT).tags(List.of("b")).build());
        index().catchUp();
        assertEquals(Set.of(work.id(), home.id(), draft.id()), Set.copyOf(ids("shared")));
        assertEquals(Set.of(work.id(), draft.id()), Set.copyOf(ids(q(Set.of("work"), null, null, null, null, null))));
        assertEquals(Set.of(work.id(), home.id(), draft.id()), Set.copyOf(ids(q(Set.of("work", "home"), null, null, null, null, null))));
        assertEquals(List.of(home.id()), ids(q(null, Set.of(MemoryType.FACT), null, null, null, null)));
        assertEquals(List.of(work.id()), ids(q(null, null, Set.of("a", "b"), null, null, null)), "all tags must match");
        assertEquals(Set.of(work.id(), draft.id()), Set.copyOf(ids(q(null, null, Set.of("b"), null, null, null))));
        assertEquals(List.of(draft.id()), ids(q(null, null, null, Set.of(MemoryStatus.DRAFT), null, null)));
        assertEquals(Set.of(work.id(), home.id()), Set.copyOf(ids(q(null, null, null, Set.of(MemoryStatus.ACTIVE), null, null))));
        assertEquals(Set.of(home.id(), draft.id()), Set.copyOf(ids(q(null, null, null, null, home.createdAt(), null))),
                "from is inclusive");
        assertEquals(Set.of(work.id(), home.id()), Set.copyOf(ids(q(null, null, null, null, null, home.createdAt()))),
                "to is inclusive");
        assertEquals(List.of(home.id()), ids(q(null, null, null, null, home.createdAt(), home.createdAt())));
        assertEquals(List.of(), ids(q(null, null, null, null, t0.minusSeconds(60), t0)));
        assertEquals(List.of(), ids(q(Set.of("nowhere"), null, null, null, null, null)));
    }

    private static IndexQuery q(Set<String> zones, Set<MemoryType> types, Set<String> tags,
                                Set<MemoryStatus> statuses, Instant from, Instant to) {
        return new IndexQuery("shared", zones, types, tags, statuses, from, to, 20);
    }

    @Test
    void blankOrTokenlessTextMatchesNothing() {
        insert(memory("anything at all").build());
        index().catchUp();
        assertEquals(List.of(), ids(""));
        assertEquals(List.of(), ids("   \t\n"));
        assertEquals(List.of(), ids("?!*"));
    }

    @Test
    void querySyntaxIsPlainText() {
        Memory m = insert(memory("the timeout happens in the auth service").build());
        index().catchUp();
        assertEquals(List.of(m.id()), ids("auth: \"timeout\" AND (service* OR [x TO y]) ~ ^2 \\ /"));
    }

    @Test
    void aDocumentMatchingMoreQueryTermsRanksFirst() {
        for (int i = 0; i < 5; i++) insert(memory("filler text number " + i + " about nothing").build());
        Memory one = insert(memory("apple grape cherry").build());
        Memory both = insert(memory("apple banana cherry").build());
        index().catchUp();
        List<IndexHit> hits = index().search(new IndexQuery("apple banana", null, null, null, null, null, null, 10));
        assertEquals(List.of(both.id(), one.id()), hits.stream().map(IndexHit::id).toList());
        assertTrue(hits.get(0).score() > hits.get(1).score(), hits.toString());
        assertTrue(hits.get(1).score() > 0, hits.toString());
    }

    @Test
    void wordWeightsAreBm25IdfOverContentAndAnUnseenWordWeighsMost() {
        for (int i = 0; i < 4; i++) insert(memory("common filler line " + i).build());
        insert(memory("common rare").build());
        index().catchUp();
        WordWeights w = index().wordWeights(List.of("common", "rare", "absent"));
        assertEquals(WordWeights.idf(5, 5), w.of("common"), 1e-9);
        assertEquals(WordWeights.idf(1, 5), w.of("rare"), 1e-9);
        assertEquals(WordWeights.idf(0, 5), w.of("absent"), 1e-9);
        assertEquals(w.unseen(), w.of("absent"), 1e-9);
        assertTrue(w.of("common") < w.of("rare") && w.of("rare") < w.unseen(), w.toString());
    }

    @Test
    void limitCapsTheHits() {
        for (int i = 0; i < 8; i++) insert(memory("common term " + i).build());
        index().catchUp();
        assertEquals(3, index().search(new IndexQuery("common", null, null, null, null, null, null, 3)).size());
    }

    @Test
    void koreanWordsMatchInflectedForms() {
        assumeTrue(supportsKorean(), "this index does not analyse Korean");
        Memory m = insert(memory("비밀번호를 변경했습니다").build());
        insert(memory("데이터베이스 연결 시간 초과가 자주 발생한다").build());
        index().catchUp();
        assertEquals(List.of(m.id()), ids("비밀번호"));
    }

    /** A word made of letters only, so no analyser splits it, unique to memory {@code n} version {@code v}. */
    private static String word(int n, int v) {
        StringBuilder sb = new StringBuilder("zq");
        for (char c : (n + "v" + v).toCharArray()) sb.append(c == 'v' ? 'v' : (char) ('a' + (c - '0')));
        return sb.toString();
    }

    @Test
    void afterRandomWritesEachLiveMemoryIsFoundByItsCurrentWordOnly() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        String reproduce = "reproduce with: -Dtest=" + getClass().getSimpleName()
                + "#afterRandomWritesEachLiveMemoryIsFoundByItsCurrentWordOnly -Dengram.seed=" + seed;
        Random random = new Random(seed);
        int[] version = new int[15];
        for (int step = 0; step < 120; step++) {
            int n = random.nextInt(version.length);
            String id = MemoryFixtures.id(n);
            int v = ++version[n];
            boolean delete = random.nextInt(3) == 0;
            store().write(tx -> {
                Optional<Memory> current = tx.get(id);
                if (current.isEmpty()) {
                    tx.insert(minimal(clock, n, "work", "memory " + word(n, v)).build());
                } else if (delete) {
                    tx.delete(id);
                } else {
                    tx.update(current.get().toBuilder().content("memory " + word(n, v)).build());
                }
                return null;
            });
            if (random.nextInt(10) == 0) index().catchUp();
        }
        assertEquals(store().headSeq(), index().catchUp(), reproduce);
        for (int n = 0; n < version.length; n++) {
            Optional<Memory> m = store().get(MemoryFixtures.id(n));
            for (int v = 1; v <= version[n]; v++) {
                boolean current = m.isPresent() && m.get().content().equals("memory " + word(n, v));
                assertEquals(current ? List.of(m.get().id()) : List.of(), ids(word(n, v)),
                        "memory " + n + " version " + v + "; " + reproduce);
            }
        }
    }

    @Test
    void reopeningKeepsEverythingSearchable() {
        Memory a = insert(memory("durable lighthouse").build());
        index().catchUp();
        Memory b = insert(memory("late lighthouse").build());
        reopen();
        index().catchUp();
        assertEquals(Set.of(a.id(), b.id()), Set.copyOf(ids("lighthouse")));
        assertEquals(store().headSeq(), index().indexedSeq());
    }
}
