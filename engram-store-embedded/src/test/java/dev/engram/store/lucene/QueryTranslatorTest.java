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
import org.apache.lucene.index.IndexReader;
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
