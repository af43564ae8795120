package dev.engram.store.lucene;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;

/**
 * The default codec, with vectors stored flat ({@link FlatVectors}: no HNSW graph) and of up to
 * {@value #MAX_DIMENSIONS} dimensions instead of Lucene's 1024, so hosted embedding models (1536 and 3072
 * dimensions are common) index like local ones. Segments keep the default codec's name; the vector format is
 * recorded per field, so segments written with Lucene's HNSW format by earlier versions still open.
 */
final class VectorCodec extends FilterCodec {
    /** Wider vectors are left out of the index (see {@link VectorFields}), never allowed to stall catch-up. */
    static final int MAX_DIMENSIONS = 4096;

    private final KnnVectorsFormat vectors = new PerFieldKnnVectorsFormat() {
        private final KnnVectorsFormat flat = new FlatVectors();

        // the writer's dimension check asks the field's format: FlatVectors allows MAX_DIMENSIONS
        @Override
        public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
            return flat;
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
