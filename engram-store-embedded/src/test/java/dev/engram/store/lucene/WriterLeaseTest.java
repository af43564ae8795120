package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.MemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.engram.testing.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease's rebuild when it fails partway: what the next catch-up leaves in the index. */
class WriterLeaseTest {
    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-11-30T10:00:00Z");

    @Test
    void aMergeCostsEveryDocumentAndNothingMoreForVectorsItCopies() throws Exception {
        try (Directory directory = new ByteBuffersDirectory();
             IndexWriter w = new IndexWriter(directory, new IndexWriterConfig().setCodec(new VectorCodec())
                     .setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int i = 0; i < 30; i++) w.addDocument(vectorDoc("a" + i));
            w.flush();
            for (int i = 0; i < 10; i++) w.addDocument(vectorDoc("b" + i));
            w.flush();
            for (int i = 0; i < 5; i++) w.addDocument(List.of(new StringField("id", "c" + i, Field.Store.NO)));
            w.flush();
            w.deleteDocuments(new Term("id", "a0"));
            try (DirectoryReader r = DirectoryReader.open(w)) {
                assertEquals(3, r.leaves().size());
                assertEquals(45 * 15, WriterLease.mergeMicros(r), "30 + 10 + 5 documents, deleted or not, vectors or not");
            }
        }
    }

    private static List<IndexableField> vectorDoc(String id) {
        return List.of(new StringField("id", id, Field.Store.NO), new KnnFloatVectorField("v", new float[] {1, id.length()}));
    }

    @Test
    void aRebuildThatFailedPartwayLeavesEachMemoryOnceWhenItRunsAgain() throws Exception {
        final int memories = 600; // more than one rebuild batch, so the second batch's read can fail
        try (SqliteMemoryStore real = SqliteMemoryStore.open(dir)) {
            real.write(tx -> {
                for (int i = 0; i < memories; i++) tx.insert(MemoryFixtures.minimal(clock, i, "work", "memory " + i).build());
                return null;
            });
            AtomicInteger reads = new AtomicInteger();
            MemoryStore failingOnce = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                    new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("getAll") && reads.incrementAndGet() == 2) {
                            throw new StoreException("read failed halfway through the rebuild");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            Path index = dir.resolve("index");
            try (Directory directory = FSDirectory.open(index); TextAnalysis analysis = new TextAnalysis()) {
                WriterLease lease = new WriterLease(directory, analysis, failingOnce, index, new SignCodes.Cache());
                assertTrue(lease.tryAcquire());
                assertThrows(StoreException.class, lease::applyChanges);
                assertTrue(lease.applyChanges(), "the next catch-up rebuilds again");
                try (DirectoryReader r = DirectoryReader.open(lease.writer())) {
                    assertEquals(memories, r.numDocs(), "no memory indexed twice");
                }
                lease.release();
            }
        }
    }
}
