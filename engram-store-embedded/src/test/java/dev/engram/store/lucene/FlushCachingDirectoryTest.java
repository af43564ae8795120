package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MergeInfo;
import org.junit.jupiter.api.Test;

/** Which new files the index keeps in RAM until a commit: flushes and small merges, not large merges. */
class FlushCachingDirectoryTest {
    @Test
    void flushesAndSmallMergesAreCachedAndALargeMergeGoesToTheDelegate() throws IOException {
        ByteBuffersDirectory disk = new ByteBuffersDirectory();
        try (LuceneSearchIndex.FlushCachingDirectory dir = new LuceneSearchIndex.FlushCachingDirectory(disk,
                LuceneSearchIndex.NRT_CACHE_SEGMENT_MB, LuceneSearchIndex.NRT_CACHE_TOTAL_MB)) {
            long large = LuceneSearchIndex.NRT_CACHE_MERGE_BYTES + 1;
            write(dir, "_1.cfs", new IOContext(new FlushInfo(10, 2 * large))); // a flush, larger still: cached
            write(dir, "_2.cfs", new IOContext(new MergeInfo(20, LuceneSearchIndex.NRT_CACHE_MERGE_BYTES, false, 1)));
            write(dir, "_3.cfs", new IOContext(new MergeInfo(10_000, large, false, 1)));
            assertEquals(Set.of("_1.cfs", "_2.cfs"), Set.of(dir.listCachedFiles()));
            assertEquals(List.of("_3.cfs"), List.of(disk.listAll()));
        }
    }

    private static void write(LuceneSearchIndex.FlushCachingDirectory dir, String name, IOContext context) throws IOException {
        try (IndexOutput out = dir.createOutput(name, context)) {
            out.writeInt(42);
        }
    }
}
