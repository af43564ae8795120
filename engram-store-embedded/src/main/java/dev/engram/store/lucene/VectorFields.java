package dev.engram.store.lucene;

import dev.engram.crypto.Sha256;
import dev.engram.spi.StoredEmbedding;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a memory's vector becomes a Lucene field.
 *
 * <h2>Field name</h2>
 * {@code vec_<slug>_<hash>_<dims>}: the slug (lowercase model id, other characters as {@code _},
 * at most 32) keeps the name readable in Luke; 8 hex digits of SHA-256 of the exact model id keep
 * {@code a/b} and {@code a_b} apart; the dimension count is part of the name because Lucene fixes a
 * vector field's dimensions on first use, so a model id reused with another vector size would
 * otherwise make every later document of it fail to index and stall catch-up. A query vector of
 * the wrong size then simply finds nothing. {@value #MODEL} holds the exact model id as a keyword.
 *
 * <h2>Similarity</h2>
 * Vectors are normalised to unit length on write and on query, and indexed with
 * {@link VectorSimilarityFunction#DOT_PRODUCT}: on unit vectors that is cosine, and Lucene scores it
 * {@code (1 + cos) / 2}, exactly the 0..1 scale {@link dev.engram.spi.VectorQuery} promises. DOT_PRODUCT
 * rather than COSINE because COSINE recomputes both norms at every comparison, while normalising once
 * on write is paid once per document (and is what storage-and-embeddings §9.1 measured). A vector of length zero, or with a non-finite component, has no direction: it is not indexed
 * (Lucene would reject the non-finite ones and stall catch-up) and as a query finds nothing.
 */
final class VectorFields {
    private static final Logger log = LoggerFactory.getLogger(VectorFields.class);
    static final String MODEL = "vec_model";
    static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;
    private static final int SLUG_LENGTH = 32;
    /** A store holds vectors of a model or two; field names of more (imports of many models) are computed each time. */
    private static final int MAX_REMEMBERED_FIELDS = 64;
    private static final Map<String, String> FIELDS = new ConcurrentHashMap<>();

    private VectorFields() {
    }

    /** The field holding vectors of {@code modelId} with {@code dims} components. */
    static String field(String modelId, int dims) {
        // asked at every write and every vector search: a recall hashed the model id each time
        String key = dims + ":" + modelId;
        String known = FIELDS.get(key);
        if (known != null) return known;
        String name = name(modelId, dims);
        if (FIELDS.size() < MAX_REMEMBERED_FIELDS) FIELDS.put(key, name);
        return name;
    }

    private static String name(String modelId, int dims) {
        String slug = modelId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        if (slug.length() > SLUG_LENGTH) slug = slug.substring(0, SLUG_LENGTH);
        return "vec_" + slug + "_" + Sha256.hex(modelId, 4) + "_" + dims;
    }

    /** Adds the vector field and the model keyword, unless the vector has no direction or is too wide. */
    static void add(Document d, String id, StoredEmbedding e) {
        float[] v = e.vector();
        if (v.length > VectorCodec.MAX_DIMENSIONS) {
            // Lucene would reject the whole document and catch-up would retry it forever
            log.warn("memory {}: vector of {} has {} dimensions, more than the index takes ({}); not indexed",
                    id, e.modelId(), v.length, VectorCodec.MAX_DIMENSIONS);
            return;
        }
        Optional<float[]> unit = unit(v);
        if (unit.isEmpty()) return;
        d.add(new KnnFloatVectorField(field(e.modelId(), v.length), unit.get(), SIMILARITY));
        d.add(new StringField(MODEL, e.modelId(), Field.Store.NO));
    }

    /** {@code v} scaled to length 1; empty for a zero vector or one with a NaN or infinite component. */
    static Optional<float[]> unit(float[] v) {
        double sum = 0;
        for (float f : v) {
            if (!Float.isFinite(f)) return Optional.empty();
            sum += (double) f * f;
        }
        double norm = Math.sqrt(sum);
        if (!(norm > 0) || Double.isInfinite(norm)) return Optional.empty();
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (float) (v[i] / norm);
        return Optional.of(out);
    }
}
