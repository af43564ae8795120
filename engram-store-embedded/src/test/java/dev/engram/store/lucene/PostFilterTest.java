package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/** Filters applied as hits are collected give exactly the top k the conjunction gives, segment by segment and with deletes. */
class PostFilterTest {
    private static final List<String> ZONES = List.of("default", "default", "default", "billing", "web", "infra");
    private static final List<String> STATUSES = List.of("ACTIVE", "ACTIVE", "ACTIVE", "ARCHIVED");

    @Test
    void theTopKIsTheConjunctionsOnRandomDocumentsAndQueries() throws IOException {
        Random random = new Random(20261206);
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new WhitespaceAnalyzer())
                     .setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int i = 0; i < 3_000; i++) {
                Document d = new Document();
                d.add(new StringField("id", "m" + i, Field.Store.NO));
                d.add(new StringField("zone", pick(random, ZONES), Field.Store.NO));
                d.add(new StringField("status", pick(random, STATUSES), Field.Store.NO));
                d.add(new StringField("tag", "t" + random.nextInt(5), Field.Store.NO));
                d.add(new LongPoint("created", i));
                d.add(new TextField("content", text(random, 5 + random.nextInt(20)), Field.Store.NO));
                writer.addDocument(d);
                if (i % 400 == 399) writer.flush(); // several segments
                if (i % 7 == 0 && i > 0) writer.deleteDocuments(new Term("id", "m" + random.nextInt(i)));
            }
            PostFilter post = new PostFilter();
            int compared = 0;
            for (int round = 0; round < 2; round++) { // the second round reads the kept bit sets
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    FilterCoverage coverage = new FilterCoverage(reader);
                    Random queries = new Random(7);
                    for (int q = 0; q < 300; q++) {
                        Query query = query(queries);
                        int k = 1 + queries.nextInt(30);
                        TopDocs expected = searcher.search(query, new TopScoreDocCollectorManager(k, Integer.MAX_VALUE));
                        TopDocs actual = post.search(searcher, query, k, coverage);
                        assertEquals(ids(expected), ids(actual), query.toString());
                        for (int i = 0; i < expected.scoreDocs.length; i++) {
                            assertEquals(expected.scoreDocs[i].score, actual.scoreDocs[i].score, query.toString());
                        }
                        compared += expected.scoreDocs.length;
                    }
                    assertTrue(post.kept() >= reader.leaves().size() && reader.leaves().size() > 1, "bit sets are kept for every segment");
                }
            }
            assertTrue(compared > 1_000, "the queries found hits to compare: " + compared);

            // a filter passing fewer than an eighth of the documents leads the conjunction instead: no bit set is made
            PostFilter fresh = new PostFilter();
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                Query selective = new BooleanQuery.Builder()
                        .add(new TermQuery(new Term("content", "w1")), Occur.MUST)
                        .add(new TermInSetQuery("zone", List.of(new BytesRef("billing"))), Occur.FILTER)
                        .add(new TermQuery(new Term("tag", "t0")), Occur.FILTER).build(); // about a sixth of a fifth
                fresh.search(searcher, selective, 10, new FilterCoverage(reader));
                assertEquals(0, fresh.kept());
                Query broad = new BooleanQuery.Builder()
                        .add(new TermQuery(new Term("content", "w1")), Occur.MUST)
                        .add(new TermInSetQuery("zone", List.of(new BytesRef("default"))), Occur.FILTER).build(); // about half
                fresh.search(searcher, broad, 10, new FilterCoverage(reader));
                assertTrue(fresh.kept() > 0);
            }
        }
    }

    /** The shape QueryTranslator makes: the words as MUST, zone/status/tag filters and sometimes a time range as FILTER. */
    private static Query query(Random random) {
        BooleanQuery.Builder words = new BooleanQuery.Builder();
        for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) words.add(new TermQuery(new Term("content", word(random))), Occur.SHOULD);
        BooleanQuery.Builder all = new BooleanQuery.Builder().add(words.build(), Occur.MUST);
        if (random.nextInt(5) > 0) all.add(new TermInSetQuery("zone", List.of(new BytesRef(pick(random, ZONES)))), Occur.FILTER);
        if (random.nextBoolean()) all.add(new TermInSetQuery("status", List.of(new BytesRef("ACTIVE"))), Occur.FILTER);
        if (random.nextInt(4) == 0) all.add(new TermQuery(new Term("tag", "t" + random.nextInt(5))), Occur.FILTER);
        if (random.nextInt(6) == 0) all.add(LongPoint.newRangeQuery("created", 500, 2_000), Occur.FILTER); // searched as Lucene plans it
        if (random.nextInt(10) == 0) all.add(new TermQuery(new Term("zone", "nowhere")), Occur.FILTER); // nothing passes
        return all.build();
    }

    private static List<Integer> ids(TopDocs top) {
        List<Integer> out = new ArrayList<>();
        for (ScoreDoc d : top.scoreDocs) out.add(d.doc);
        return out;
    }

    private static String text(Random random, int words) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < words; i++) b.append(word(random)).append(' ');
        return b.toString();
    }

    /** A Zipf-like draw from 300 words: a few common ones, a long tail. */
    private static String word(Random random) {
        return "w" + (int) Math.floor(Math.pow(300, random.nextDouble()));
    }

    private static String pick(Random random, List<String> from) {
        return from.get(random.nextInt(from.size()));
    }
}
