package dev.engram.store.postgres;

import dev.engram.error.StoreException;
import dev.engram.store.jdbc.MemoryRowCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;

/** Maps memories, edges, versions and vectors to and from rows of {@link PgSchema}. */
final class PgRows {
    private PgRows() {
    }

    /** PostgreSQL's rows: tags as a text[], times as BIGINT. */
    static final MemoryRowCodec ROWS = new MemoryRowCodec(new MemoryRowCodec.TagColumn() {
        @Override
        public void bind(PreparedStatement ps, int index, List<String> tags) throws SQLException {
            ps.setArray(index, textArray(ps.getConnection(), tags));
        }

        @Override
        public List<String> read(ResultSet rs, String column) throws SQLException {
            Array a = rs.getArray(column);
            return a == null ? List.of() : Arrays.asList((String[]) a.getArray());
        }
    }, Types.BIGINT);

    /** The memory columns in bind order (see {@link MemoryRowCodec#bindFields}); id first. */
    static final List<String> COLUMNS = List.of("id", "zone", "key", "name", "type", "entity_type", "content",
            "tags", "file", "path_scope", "importance", "quality", "confidence", "status", "created_at", "updated_at",
            "last_accessed_at", "access_count", "expires_at", "occurred_at", "review_interval_days", "last_verified_at",
            "verify_count", "relevance", "origin", "session", "branch", "pin_priority", "superseded_at", "superseded_by",
            "last_decay_at");

    static final String MEMORY_COLUMNS = String.join(", ", COLUMNS);

    static String placeholders(int n) {
        return "?, ".repeat(n - 1) + "?";
    }

    static Array textArray(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray(new String[0]));
    }

    /** Little-endian float32, as the embedded store: every bit pattern (NaN payloads, -0.0) survives. */
    static byte[] encode(float[] vector) {
        ByteBuffer b = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : vector) b.putFloat(f);
        return b.array();
    }

    static float[] decode(String id, int dims, byte[] blob) {
        if (blob == null || blob.length != dims * Float.BYTES) {
            throw new StoreException("embedding of " + id + ": " + (blob == null ? 0 : blob.length)
                    + " bytes do not hold " + dims + " float32 values");
        }
        ByteBuffer b = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[dims];
        for (int i = 0; i < dims; i++) vector[i] = b.getFloat();
        return vector;
    }
}
