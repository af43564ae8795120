package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MergeInfo;
import org.junit.jupiter.api.Test;

/** Which new files the index keeps in RAM until a commit (flushes and small merges, not large merges), and how they are read. */
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

    @Test
    void aCachedFileIsReadThroughOneBufferWithTheSameContent() throws IOException {
        ByteBuffersDirectory disk = new ByteBuffersDirectory();
        try (LuceneSearchIndex.FlushCachingDirectory dir = new LuceneSearchIndex.FlushCachingDirectory(disk,
                LuceneSearchIndex.NRT_CACHE_SEGMENT_MB, LuceneSearchIndex.NRT_CACHE_TOTAL_MB)) {
            // a byte first, so that 384-float vectors straddle the cache's own buffers as a segment's vectors do
            float[] written = new float[100 * 384];
            for (int i = 0; i < written.length; i++) written[i] = i * 0.5f - 7;
            try (IndexOutput out = dir.createOutput("_4.vec", new IOContext(new FlushInfo(100, 200_000)))) {
                out.writeByte((byte) 9);
                for (float f : written) out.writeInt(Float.floatToIntBits(f));
            }
            assertEquals(Set.of("_4.vec"), Set.of(dir.listCachedFiles()));
            try (IndexInput in = dir.openInput("_4.vec", IOContext.READ)) {
                // Lucene's input over heap buffers gives a slice within one buffer its single-buffer implementation
                assertEquals("SingleBufferImpl", in.slice("whole file", 0, in.length()).getClass().getSimpleName(),
                        "a cached file is read through one buffer");
                assertEquals(1 + 4L * written.length, in.length());
                assertEquals(9, in.readByte());
                for (int v = 0; v < 100; v++) {
                    float[] read = new float[384];
                    in.readFloats(read, 0, read.length);
                    assertArrayEquals(Arrays.copyOfRange(written, v * 384, (v + 1) * 384), read, "vector " + v);
                }
                IndexInput slice = in.slice("vector 57", 1 + 4L * 57 * 384, 4L * 384);
                float[] read = new float[384];
                slice.readFloats(read, 0, read.length);
                assertArrayEquals(Arrays.copyOfRange(written, 57 * 384, 58 * 384), read);
            }
            // once a commit has written it through, it is the delegate's file again
            dir.sync(List.of("_4.vec"));
            assertEquals(Set.of(), Set.of(dir.listCachedFiles()));
            try (IndexInput in = dir.openInput("_4.vec", IOContext.READ)) {
                assertEquals(1 + 4L * written.length, in.length());
                assertEquals(9, in.readByte());
            }
        }
    }

    private static void write(LuceneSearchIndex.FlushCachingDirectory dir, String name, IOContext context) throws IOException {
        try (IndexOutput out = dir.createOutput(name, context)) {
            out.writeInt(42);
        }
    }
}
