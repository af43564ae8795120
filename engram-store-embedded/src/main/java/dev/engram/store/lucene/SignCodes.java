package dev.engram.store.lucene;

import java.io.IOException;
import java.util.Optional;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * One bit per dimension of each vector of a segment: whether it lies above the segment's mean there. Two such
 * codes differ in few bits when their vectors point the same way, and counting the bits that differ takes six
 * XORs and six popcounts for 384 dimensions, where a dot product takes 384 multiplications, one at a time on
 * Java 17. {@link VectorSearch}'s scan ranks a large segment's candidates by these codes first and computes the
 * dot product of the best few only. Centring matters: a sentence model's vectors share a large common
 * component, and the sign of a raw coordinate says little about the direction that sets two of them apart.
 *
 * <p>Built when a merge writes a segment ({@link Cache#warm}) or on a segment's first large scan, from its vectors as
 * Lucene stores them, and kept while the segment lives ({@link Cache}): a segment never changes, and a deletion only
 * leaves a code nobody asks for.
 */
final class SignCodes {
    private final float[] mean;
    private final int words;
    private final long[] bits;
    private final FixedBitSet present;

    private SignCodes(float[] mean, long[] bits, FixedBitSet present) {
        this.mean = mean;
        this.words = wordsFor(mean.length);
        this.bits = bits;
        this.present = present;
    }

    private static int wordsFor(int dimensions) {
        return (dimensions + 63) >>> 6;
    }

    /** The codes of every vector of {@code field} in the segment: two passes over its vectors, the mean and then the bits. */
    static SignCodes build(LeafReader reader, String field, int dimensions) throws IOException {
        int maxDoc = reader.maxDoc();
        float[] mean = new float[dimensions];
        FloatVectorValues values = reader.getFloatVectorValues(field);
        int n = 0;
        if (values != null) {
            double[] sum = new double[dimensions];
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                float[] v = values.vectorValue();
                for (int d = 0; d < dimensions; d++) sum[d] += v[d];
                n++;
            }
            for (int d = 0; d < dimensions; d++) mean[d] = n == 0 ? 0f : (float) (sum[d] / n);
        }
        int words = wordsFor(dimensions);
        long[] bits = new long[Math.multiplyExact(maxDoc, words)];
        FixedBitSet present = new FixedBitSet(Math.max(1, maxDoc));
        values = reader.getFloatVectorValues(field);
        if (values != null) {
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                encode(values.vectorValue(), mean, bits, doc * words);
                present.set(doc);
            }
        }
        return new SignCodes(mean, bits, present);
    }

    private static void encode(float[] v, float[] mean, long[] out, int offset) {
        for (int d = 0; d < mean.length; d++) {
            if (v[d] > mean[d]) out[offset + (d >>> 6)] |= 1L << (d & 63);
        }
    }

    /** The code of a query vector, around this segment's mean. */
    long[] encode(float[] query) {
        long[] code = new long[words];
        encode(query, mean, code, 0);
        return code;
    }

    /** Whether the document has a vector in this field. */
    boolean has(int doc) {
        return present.get(doc);
    }

    /** How many dimensions the document's code and {@code query}'s disagree on: 0 to the dimension count. */
    int distance(int doc, long[] query) {
        int base = doc * words;
        int differ = 0;
        for (int w = 0; w < words; w++) differ += Long.bitCount(bits[base + w] ^ query[w]);
        return differ;
    }

    int dimensions() {
        return mean.length;
    }

    /**
     * The codes of the segments a search index has scanned, by segment and field, each dropped when its segment
     * closes. Segments outlive readers (every reopen shares the unchanged ones), so this lives with the index,
     * not with a reader.
     */
    static final class Cache {
        private final SegmentCache<String, SignCodes> codes = new SegmentCache<>(Integer.MAX_VALUE);

        /** The segment's codes for {@code field}, built on first use; empty when the segment offers no key to keep them by. */
        Optional<SignCodes> of(LeafReader reader, String field, int dimensions) throws IOException {
            return codes.get(reader, field, () -> build(reader, field, dimensions)); // the field's name holds its dimensions
        }

        /**
         * Builds the codes of every vector field of a segment a merge has just written, before any search sees it
         * (the index writer's merged-segment warmer): a merged segment is the largest, and its first scan would
         * otherwise pay two passes over its vectors inside a recall. A flushed segment holds a few writes and
         * builds its codes on first use.
         */
        void warm(LeafReader reader) throws IOException {
            for (FieldInfo f : reader.getFieldInfos()) {
                if (f.getVectorDimension() > 0) of(reader, f.name, f.getVectorDimension());
            }
        }

        /** Segments and fields whose codes are kept (for tests). */
        int size() {
            return codes.size();
        }
    }
}
