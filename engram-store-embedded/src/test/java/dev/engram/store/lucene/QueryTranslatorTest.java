package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.MemoryStatus;
import dev.engram.spi.IndexQuery;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which fields a recall searches with which weight (index layout 3): what the contract suite cannot see. */
class QueryTranslatorTest {
    private final TextAnalysis analysis = new TextAnalysis();
    private final QueryTranslator translator = new QueryTranslator(analysis);

    @AfterEach
    void close() {
        analysis.close();
    }

    /** field:term → boost of the text part of the translated query. */
    private Map<String, Float> clauses(String text, IndexQuery.Match match) throws IOException {
        Query q = translator.translate(new IndexQuery(text, null, null, null, null, null, null, 10, match),
                new FilterCoverage(Zones.reader("default"))).orElseThrow();
        BooleanQuery textPart = (BooleanQuery) ((BooleanQuery) q).clauses().get(0).getQuery();
        Map<String, Float> out = new TreeMap<>();
        for (BooleanClause c : textPart.clauses()) {
            BoostQuery b = (BoostQuery) c.getQuery();
            out.put(((TermQuery) b.getQuery()).getTerm().toString(), b.getBoost());
        }
        return out;
    }

    /** The filter clauses of the query for {@code zones} and the active status, over {@code reader}. */
    private List<String> filters(IndexReader reader, Set<String> zones) throws IOException {
        Query q = translator.translate(new IndexQuery("redis", zones, null, null, Set.of(MemoryStatus.ACTIVE), null, null, 10),
                new FilterCoverage(reader)).orElseThrow();
        return ((BooleanQuery) q).clauses().stream().filter(c -> c.getOccur() == BooleanClause.Occur.FILTER)
                .map(c -> c.getQuery().toString()).toList();
    }

    /**
     * Term states looked up once per field and segment ({@link TermLookup}) give the same hits with the same scores as
     * each term query's own lookup: over segments that hold a term and segments that do not, a deleted document,
     * a term repeated in the query, and a query whose words no document holds.
     */
    @Test
    void termStatesLookedUpPerFieldAndSegmentScoreExactlyAsEachTermsOwn() throws IOException {
        String[] texts = {"Redis caches sessions for ten minutes", "The deploy script restarts the cache",
            "Postgres holds the record of every deploy", "Timeouts on the redis cache after a deploy",
            "비밀번호를 바꾸면 세션이 끊긴다", "Sessions expire when the cache restarts", "A cache miss costs a database read",
            "The timeout is thirty seconds for mobile", "Nothing about the subject at all", "Deploys happen on Tuesdays",
            "Redis and Postgres both run locally", "The cache key includes the user id"};
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analysis.indexAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int i = 0; i < texts.length; i++) {
                Document d = new Document();
                d.add(new StringField(MemoryDocuments.ID, "m" + i, Field.Store.YES));
                for (MemoryDocuments.Source source : MemoryDocuments.sources()) {
                    String text = source == MemoryDocuments.Source.CONTENT ? texts[i] : source.normalise(i % 3 == 0 ? "redis-notes" : "deploy");
                    for (String analyser : source.analysers()) d.add(new TextField(source.field(analyser), text, Field.Store.NO));
                }
                w.addDocument(d);
                if (i % 3 == 2) w.commit(); // a segment every three documents
            }
            w.deleteDocuments(new Term(MemoryDocuments.ID, "m3"));
            w.commit();
        }
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
            assertEquals(4, reader.leaves().size());
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setSimilarity(LuceneSearchIndex.SIMILARITY);
            for (String text : List.of("redis cache timeout", "the deploy of the cache", "Redis redis REDIS sessions",
                    "비밀번호 세션", "zzyzx quux")) {
                IndexQuery q = new IndexQuery(text, null, null, null, null, null, null, 10);
                Query own = translator.translate(q, new FilterCoverage(reader)).orElseThrow();
                Query looked = translator.translate(q, new FilterCoverage(reader), reader.getContext()).orElseThrow();
                BooleanQuery textPart = (BooleanQuery) ((BooleanQuery) looked).clauses().get(0).getQuery();
                for (BooleanClause c : textPart.clauses()) {
                    assertTrue(((TermQuery) ((BoostQuery) c.getQuery()).getQuery()).getTermStates() != null, text + ": " + c);
                }
                TopDocs a = searcher.search(own, 10), b = searcher.search(looked, 10);
                assertEquals(hits(a), hits(b), text);
                assertEquals(text.startsWith("zzyzx"), a.scoreDocs.length == 0, text + ": " + hits(a));
            }
        }
    }

    private static List<String> hits(TopDocs top) {
        return java.util.Arrays.stream(top.scoreDocs).map((ScoreDoc d) -> d.doc + "=" + d.score).toList();
    }

    @Test
    void aFilterEveryDocumentPassesIsLeftOutAndOneThatDropsADocumentIsKept() throws IOException {
        assertEquals(List.of(), filters(Zones.reader("default", "default"), Set.of("default")),
                "one zone, all active: nothing to filter");
        assertEquals(List.of("zone:(default)"), filters(Zones.reader("default", "work"), Set.of("default")));
        assertEquals(List.of(), filters(Zones.reader("default", "work"), Set.of("default", "work")));
        // a deleted document still counts in both docFreq and maxDoc: the rule stays exact, only conservative
        assertEquals(List.of("zone:(default)"), filters(Zones.withDeleted("work", "default", "work"), Set.of("default")));
        assertEquals(List.of(), filters(Zones.withDeleted("work", "default", "work"), Set.of("default", "work")));
    }

    @Test
    void contentIsSearchedInEveryAnalysisAndKeysTagsPathsInTheStandardOneWithTheWeightOfThree() throws IOException {
        Map<String, Float> c = clauses("redis timeout", IndexQuery.Match.ALL_FIELDS);
        assertEquals(Map.ofEntries(Map.entry("content_std:redis", 1.0f), Map.entry("content_std:timeout", 1.0f),
                Map.entry("content_ko:redis", 1.0f), Map.entry("content_ko:timeout", 1.0f),
                Map.entry("content_cjk:redis", 1.0f), Map.entry("content_cjk:timeout", 1.0f),
                Map.entry("key_std:redis", 6.0f), Map.entry("key_std:timeout", 6.0f),
                Map.entry("tags_std:redis", 4.5f), Map.entry("tags_std:timeout", 4.5f),
                Map.entry("file_std:redis", 1.5f), Map.entry("file_std:timeout", 1.5f)), c);
    }

    @Test
    void koreanReachesTheNoriFieldAsMorphemes() throws IOException {
        Map<String, Float> c = clauses("비밀번호를", IndexQuery.Match.ALL_FIELDS);
        assertTrue(c.containsKey("content_ko:비밀") && c.containsKey("content_ko:번호"), "morphemes without the particle: " + c);
        assertTrue(c.keySet().stream().anyMatch(k -> k.startsWith("content_cjk:")), c.toString());
    }

    @Test
    void nearDuplicateSearchUsesContentWordsOnly() throws IOException {
        assertEquals(Map.of("content_std:redis", 1.0f, "content_std:timeout", 1.0f),
                clauses("redis timeout", IndexQuery.Match.CONTENT_WORDS));
    }

    @Test
    void functionWordsWeighAFifthOfOtherWordsInEveryField() throws IOException {
        Map<String, Float> c = clauses("What did Caroline's friend research?", IndexQuery.Match.ALL_FIELDS);
        assertEquals(1.0f, c.get("content_std:caroline's"), c.toString());
        assertEquals(1.0f, c.get("content_ko:friend"), c.toString());
        assertEquals(6.0f, c.get("key_std:research"), c.toString());
        assertEquals(0.2f, c.get("content_std:what"), 1e-6f, c.toString());
        assertEquals(0.2f, c.get("content_ko:did"), 1e-6f, c.toString());
        assertEquals(6.0f * 0.2f, c.get("key_std:did"), 1e-6f, c.toString());
    }
}
