package dev.engram.store.lucene;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;

/**
 * The default codec, with vectors of up to {@value #MAX_DIMENSIONS} dimensions instead of Lucene's
 * 1024, so hosted embedding models (1536 and 3072 dimensions are common) index like local ones.
 * Only the writer's dimension check changes: segments keep the default codec's name and the standard
 * HNSW format (M=16, beam 100), so any Lucene reader, Luke included, opens them without this class.
 */
final class VectorCodec extends FilterCodec {
    /** Wider vectors are left out of the index (see {@link VectorFields}), never allowed to stall catch-up. */
    static final int MAX_DIMENSIONS = 4096;

    private final KnnVectorsFormat vectors = new PerFieldKnnVectorsFormat() {
        private final KnnVectorsFormat hnsw = new Lucene99HnswVectorsFormat();

        @Override
        public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
            return hnsw;
        }

        @Override
        public int getMaxDimensions(String field) {
            return MAX_DIMENSIONS;
        }
    };

    VectorCodec() {
        super(Codec.getDefault().getName(), Codec.getDefault());
    }

    @Override
    public KnnVectorsFormat knnVectorsFormat() {
        return vectors;
    }
}
