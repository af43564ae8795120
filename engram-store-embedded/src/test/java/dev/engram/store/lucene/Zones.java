package dev.engram.store.lucene;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;

/** Small in-memory indexes of documents that hold only a zone and a status, for the filter rules. */
final class Zones {
    private Zones() {
    }

    /** One ACTIVE document per zone given, in one segment. */
    static DirectoryReader reader(String... zones) throws IOException {
        return withDeleted(null, zones);
    }

    /** The same, then the documents of zone {@code deleted} deleted, and kept in the segment (no merge reclaims them). */
    static DirectoryReader withDeleted(String deleted, String... zones) throws IOException {
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
            int n = 0;
            for (String zone : zones) {
                Document d = new Document();
                d.add(new StringField(MemoryDocuments.ID, "m" + n++, Field.Store.YES));
                d.add(new StringField(MemoryDocuments.ZONE, zone, Field.Store.NO));
                d.add(new StringField(MemoryDocuments.STATUS, "ACTIVE", Field.Store.NO));
                w.addDocument(d);
            }
            w.commit();
            if (deleted != null) {
                w.deleteDocuments(new Term(MemoryDocuments.ZONE, deleted));
                w.commit();
            }
        }
        return DirectoryReader.open(dir);
    }
}
