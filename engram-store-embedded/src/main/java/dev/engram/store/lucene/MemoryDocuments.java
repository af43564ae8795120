package dev.engram.store.lucene;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.IndexHit;
import dev.engram.spi.StoredEmbedding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * How a memory becomes a Lucene document: keyword fields for filters, analysed text for BM25, and
 * its stored vector, if any ({@link VectorFields}).
 */
final class MemoryDocuments {
    static final String ID = "id";
    static final String ZONE = "zone";
    static final String TYPE = "type";
    static final String STATUS = "status";
    static final String TAG = "tag";
    static final String CREATED = "created";
    /** See {@link Source#normalise}. */
    private static final Pattern JOINERS = Pattern.compile("[-_./\\\\:]+");

    /**
     * The searchable parts of a memory. A key or tag hit says more about what a memory is than a word
     * somewhere in its content; the file path says least. Content is indexed once per analyser (it may
     * be in any language). Keys and tags are ASCII by rule ({@code MemoryRules}), where Nori and CJK
     * bigrams yield the standard analyser's words again, so they and paths are indexed once (index
     * layout 3): the weights below are the sums of the three copies layout 2 searched, and a recall
     * runs half the term clauses it did.
     */
    enum Source {
        CONTENT("content", 1.0f, Memory::content, TextAnalysis.ANALYSERS),
        KEY("key", 6.0f, Memory::key, List.of(TextAnalysis.STANDARD)),
        TAGS("tags", 4.5f, m -> String.join(" ", m.tags()), List.of(TextAnalysis.STANDARD)),
        FILE("file", 1.5f, m -> m.file() == null ? "" : m.file(), List.of(TextAnalysis.STANDARD));

        private final String name;
        private final float boost;
        private final Function<Memory, String> text;
        private final List<String> analysers;

        Source(String name, float boost, Function<Memory, String> text, List<String> analysers) {
            this.name = name;
            this.boost = boost;
            this.text = text;
            this.analysers = analysers;
        }

        /** The analysers this part is indexed with, as field-name suffixes. */
        List<String> analysers() {
            return analysers;
        }

        String field(String analyser) {
            return name + "_" + analyser;
        }

        float boost() {
            return boost;
        }

        /** Keys, tags and paths join words with - _ . / : which the analysers would keep together. */
        String normalise(String s) {
            return this == CONTENT ? s : JOINERS.matcher(s).replaceAll(" ");
        }

        String textOf(Memory m) {
            return normalise(text.apply(m));
        }
    }

    private MemoryDocuments() {
    }

    static Term idTerm(String id) {
        return new Term(ID, id);
    }

    /** The memory's document; {@code embedding} is its stored vector, read with it from the store. */
    static Document of(Memory m, Optional<StoredEmbedding> embedding) {
        Document d = new Document();
        d.add(new StringField(ID, m.id(), Field.Store.YES));
        d.add(new BinaryDocValuesField(ID, new BytesRef(m.id())));
        d.add(new StringField(ZONE, m.zone(), Field.Store.NO));
        d.add(new StringField(TYPE, m.type().name(), Field.Store.NO));
        d.add(new StringField(STATUS, m.status().name(), Field.Store.NO));
        for (String tag : m.tags()) d.add(new StringField(TAG, tag, Field.Store.NO));
        long created = m.createdAt().toEpochMilli();
        d.add(new LongPoint(CREATED, created));
        d.add(new NumericDocValuesField(CREATED, created));
        for (Source source : Source.values()) {
            String text = source.textOf(m);
            if (text.isBlank()) continue;
            // a key the engine derived from the content is the content's first words: weighed as a key, they
            // would count seven times and rank memories that merely begin with a query's words first (index layout 4)
            if (source == Source.KEY && MemoryRules.isDerivedKey(m.key(), m.content())) continue;
            // nor is a key of a fixed word and a hash: it has no words to find (index layout 5)
            if (source == Source.KEY && MemoryRules.isOpaqueKey(m.key())) continue;
            for (String analyser : source.analysers()) {
                d.add(new TextField(source.field(analyser), text, Field.Store.NO));
            }
        }
        embedding.ifPresent(e -> VectorFields.add(d, m.id(), e));
        return d;
    }

    /**
     * The memory ids and scores of {@code top}, best first. Ids come from doc values: reading the
     * stored field decompresses a block per hit, which was a quarter of a recall's CPU at 10k
     * memories. Doc values are read in doc order (their iterators only go forward); a segment
     * written before they existed (index layout 1) falls back to the stored field.
     */
    static List<IndexHit> hits(IndexSearcher searcher, TopDocs top) throws IOException {
        ScoreDoc[] byDoc = top.scoreDocs.clone();
        Arrays.sort(byDoc, Comparator.comparingInt(sd -> sd.doc));
        Map<Integer, String> ids = new HashMap<>(byDoc.length * 2);
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        LeafReaderContext leaf = null;
        BinaryDocValues values = null;
        StoredFields stored = null;
        for (ScoreDoc sd : byDoc) {
            if (leaf == null || sd.doc >= leaf.docBase + leaf.reader().maxDoc()) {
                leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
                values = leaf.reader().getBinaryDocValues(ID);
                stored = null;
            }
            int local = sd.doc - leaf.docBase;
            if (values != null && values.advanceExact(local)) {
                ids.put(sd.doc, values.binaryValue().utf8ToString());
            } else {
                if (stored == null) stored = leaf.reader().storedFields(); // a layout-1 segment
                ids.put(sd.doc, stored.document(local, Set.of(ID)).get(ID));
            }
        }
        List<IndexHit> hits = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc sd : top.scoreDocs) hits.add(new IndexHit(ids.get(sd.doc), sd.score));
        return hits;
    }

    static List<Source> sources() {
        return List.of(Source.values());
    }
}
