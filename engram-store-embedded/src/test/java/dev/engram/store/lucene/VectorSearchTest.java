package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.util.Set;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.junit.jupiter.api.Test;

/** The over-fetch policy and field naming, which the contract suite can only observe indirectly. */
class VectorSearchTest {
    @Test
    void hnswIsAskedForFiveTimesKAtLeastFiftyAtMostAThousandNeverFewerThanK() {
        assertEquals(50, VectorSearch.fetch(1, 100_000));
        assertEquals(50, VectorSearch.fetch(10, 100_000));
        assertEquals(100, VectorSearch.fetch(20, 100_000));
        assertEquals(1_000, VectorSearch.fetch(500, 100_000));
        assertEquals(2_000, VectorSearch.fetch(2_000, 100_000));
        assertEquals(30, VectorSearch.fetch(10, 30), "never more than there are documents");
        assertEquals(1, VectorSearch.fetch(10, 0));
    }

    @Test
    void theKnnQueryOverFetchesAndCarriesTheFilter() throws IOException {
        FilterCoverage reader = new FilterCoverage(Zones.reader("home", "work"));
        VectorQuery plain = new VectorQuery(new float[] {3f, 4f}, "m", null, null, null, null, null, null, 10);
        KnnFloatVectorQuery q = (KnnFloatVectorQuery) VectorSearch.translate(plain, reader).orElseThrow();
        assertEquals(2, q.getK(), "never more than there are documents");
        assertNull(q.getFilter(), "no filter clause: an empty BooleanQuery would match nothing");
        assertEquals(0.6f, q.getTargetCopy()[0], 1e-6f, "the query vector is normalised like the stored ones");
        assertEquals(VectorFields.field("m", 2), q.getField());
        VectorQuery zoned = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work"), null, null, null, null, null, 10);
        assertNotNull(((KnnFloatVectorQuery) VectorSearch.translate(zoned, reader).orElseThrow()).getFilter());
        VectorQuery both = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work", "home"), null, null, null, null, null, 10);
        assertNull(((KnnFloatVectorQuery) VectorSearch.translate(both, reader).orElseThrow()).getFilter(),
                "a filter every document passes is left out");
        assertTrue(VectorSearch.translate(new VectorQuery(new float[] {0f, 0f}, "m", null, null, null, null, null, null, 1), reader)
                .isEmpty());
    }

    @Test
    void fieldNamesAreReadableDistinctPerModelAndSize() {
        String f = VectorFields.field("sentence-transformers/all-MiniLM-L6-v2", 384);
        assertTrue(f.matches("vec_[a-z0-9_]+_[0-9a-f]{8}_384"), f);
        assertTrue(f.startsWith("vec_sentence_transformers_all_mini"), f);
        assertNotEquals(VectorFields.field("a/b", 3), VectorFields.field("a_b", 3));
        assertNotEquals(VectorFields.field("m", 3), VectorFields.field("m", 4));
        assertEquals(VectorFields.field("m", 3), VectorFields.field("m", 3));
    }
}
