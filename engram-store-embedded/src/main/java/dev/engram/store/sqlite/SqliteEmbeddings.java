package dev.engram.store.sqlite;

import static dev.engram.store.sqlite.SqliteStatements.DELETE_EMBEDDING;
import static dev.engram.store.sqlite.SqliteStatements.MISSING_EMBEDDINGS;
import static dev.engram.store.sqlite.SqliteStatements.UPSERT_EMBEDDING;

import dev.engram.error.StoreException;
import dev.engram.spi.StoredEmbedding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code embeddings} table (schema V2): one vector per memory, stored as little-endian float32 so
 * that the bytes, and therefore every float bit pattern, come back exactly as written. Used on the
 * writer connection by {@link SqliteTransaction} and on the reader by {@link SqliteMemoryStore}.
 */
final class SqliteEmbeddings {
    private SqliteEmbeddings() {
    }

    /** Inserts or replaces the memory's vector; the caller checks the memory exists and appends the change. */
    static void put(Connection c, String id, StoredEmbedding e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UPSERT_EMBEDDING)) {
            ps.setString(1, id);
            ps.setString(2, e.modelId());
            ps.setInt(3, e.dimensions());
            ps.setBytes(4, encode(e.vector()));
            ps.executeUpdate();
        }
    }

    /** Whether there was a vector to delete. */
    static boolean clear(Connection c, String id) throws SQLException {
        return SqlCalls.update(c, DELETE_EMBEDDING, id) > 0;
    }

    /** Runs a bound {@code EMBEDDING_OF} statement (left open, for reuse) for {@code id}. */
    static Optional<StoredEmbedding> get(PreparedStatement bound, String id) throws SQLException {
        try (ResultSet rs = bound.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            return Optional.of(new StoredEmbedding(rs.getString(1), decode(id, rs.getInt(2), rs.getBytes(3))));
        }
    }

    static List<String> missing(Connection c, String modelId, int max) throws SQLException {
        try (PreparedStatement ps = SqlCalls.prepare(c, MISSING_EMBEDDINGS, modelId, max); ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) out.add(rs.getString(1));
            return out;
        }
    }

    static byte[] encode(float[] vector) {
        ByteBuffer b = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        // putFloat keeps the bit pattern, NaN payloads included: a vector reads back exactly as written
        for (float f : vector) b.putFloat(f);
        return b.array();
    }

    static float[] decode(String id, int dims, byte[] blob) {
        if (blob == null || blob.length != dims * Float.BYTES) {
            // the CHECK constraint makes this a file written by something else, not a bug to hide
            throw new StoreException("embedding of " + id + ": blob of " + (blob == null ? 0 : blob.length)
                    + " bytes does not hold " + dims + " float32 values");
        }
        ByteBuffer b = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[dims];
        for (int i = 0; i < dims; i++) vector[i] = b.getFloat();
        return vector;
    }
}
