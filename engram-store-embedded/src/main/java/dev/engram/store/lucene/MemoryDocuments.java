package dev.engram.store.lucene;

import dev.engram.memory.Memory;
import java.util.List;
import java.util.function.Function;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;

/** How a memory becomes a Lucene document: keyword fields for filters, analysed text for BM25. */
final class MemoryDocuments {
    static final String ID = "id";
    static final String ZONE = "zone";
    static final String TYPE = "type";
    static final String STATUS = "status";
    static final String TAG = "tag";
    static final String CREATED = "created";

    /**
     * The searchable parts of a memory, each indexed once per analyser. A key or tag hit says more
     * about what a memory is than a word somewhere in its content; the file path says least.
     */
    enum Source {
        CONTENT("content", 1.0f, Memory::content),
        KEY("key", 2.0f, Memory::key),
        TAGS("tags", 1.5f, m -> String.join(" ", m.tags())),
        FILE("file", 0.5f, m -> m.file() == null ? "" : m.file());

        private final String name;
        private final float boost;
        private final Function<Memory, String> text;

        Source(String name, float boost, Function<Memory, String> text) {
            this.name = name;
            this.boost = boost;
            this.text = text;
        }

        String field(String analyser) {
            return name + "_" + analyser;
        }

        float boost() {
            return boost;
        }

        /** Keys, tags and paths join words with - _ . / : which the analysers would keep together. */
        String normalise(String s) {
            return this == CONTENT ? s : s.replaceAll("[-_./\\\\:]+", " ");
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

    static Document of(Memory m) {
        Document d = new Document();
        d.add(new StringField(ID, m.id(), Field.Store.YES));
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
            for (String analyser : TextAnalysis.ANALYSERS) {
                d.add(new TextField(source.field(analyser), text, Field.Store.NO));
            }
        }
        return d;
    }

    static List<Source> sources() {
        return List.of(Source.values());
    }
}
