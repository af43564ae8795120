package dev.engram.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Vectors stored as Lucene stores them under its HNSW graph, without the graph. {@link VectorSearch} scans a
 * segment's candidates (ranked by {@link SignCodes} when they are many), so the graph was only cost: building it
 * made a flush and above all a merge expensive (10k vectors re-graphed in 11.3 s here), which kept the index in
 * several segments, and every segment costs a recall its term lookups. Without it a merge copies the vectors.
 *
 * <p>Registered under {@value #NAME} (META-INF/services), the name Lucene records per field to open the segment
 * again. Segments written with the graph by earlier versions are read with Lucene's own format and rewritten flat
 * by the next merge.
 */
public final class FlatVectors extends KnnVectorsFormat {
    static final String NAME = "EngramFlatVectors";

    private final FlatVectorsFormat flat = new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

    /** Lucene's service loader makes it by this constructor. */
    public FlatVectors() {
        super(NAME);
    }

    @Override
    public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
        return flat.fieldsWriter(state);
    }

    @Override
    public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
        return flat.fieldsReader(state);
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return VectorCodec.MAX_DIMENSIONS;
    }
}
