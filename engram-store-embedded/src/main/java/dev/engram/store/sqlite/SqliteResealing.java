package dev.engram.store.sqlite;

import dev.engram.crypto.FieldSealer;
import dev.engram.crypto.SealedMemoryStore;
import dev.engram.error.EngramUserException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites every field {@link SealedMemoryStore} seals from one form to another, table by table, inside
 * the caller's write transaction: a failure anywhere rolls all of it back, so a store is either wholly
 * in its old form or wholly in its new one. Rows are read in rowid pages and updated by rowid (rowids
 * do not move on UPDATE). The column list mirrors SealedMemoryStore's mapping of the same fields;
 * EncryptedStoreTest reads a converted store back through that mapping, so a column missed here fails it.
 */
final class SqliteResealing {
    private SqliteResealing() {
    }

    private enum Kind { LOOKUP, TEXT, TAGS }

    private record Column(String name, Kind kind) {
    }

    private record Table(String name, String where, List<Column> columns) {
    }

    private static final List<Column> MEMORY = List.of(new Column("key", Kind.LOOKUP), new Column("name", Kind.LOOKUP),
            new Column("entity_type", Kind.TEXT), new Column("content", Kind.TEXT), new Column("tags", Kind.TAGS),
            new Column("file", Kind.TEXT), new Column("path_scope", Kind.TEXT), new Column("session", Kind.TEXT),
            new Column("branch", Kind.TEXT));
    private static final List<Column> VERSION = List.of(new Column("content", Kind.TEXT), new Column("tags", Kind.TAGS));

    private static final List<Table> TABLES = List.of(
            new Table("memories", "", MEMORY),
            new Table("tombstones", "", MEMORY),
            new Table("versions", "", VERSION),
            new Table("tombstone_versions", "", VERSION),
            new Table("edges", "", List.of(new Column("label", Kind.LOOKUP))),
            new Table("tombstone_edges", "", List.of(new Column("label", Kind.LOOKUP))),
            new Table("zones", "", List.of(new Column("short_description", Kind.TEXT), new Column("description", Kind.TEXT))),
            new Table("marks", "name NOT IN ('" + SealedMemoryStore.STATE_MARK + "', '" + SqliteStatements.ACCESS_EPOCH_MARK
                    + "')", List.of(new Column("value", Kind.TEXT))));

    /** Vectors: (table, blob column, dims column). */
    private static final List<String[]> VECTORS = List.of(new String[] {"embeddings", "vector", "dims"},
            new String[] {"tombstones", "embedding_vector", "embedding_dims"});

    private static final int PAGE = 500;

    static void reseal(Connection c, FieldSealer from, FieldSealer to, String expectedState, String newState) throws SQLException {
        String state = SqlCalls.text(c, SqliteStatements.MARK, SealedMemoryStore.STATE_MARK).orElse("plain");
        if (!state.equals(expectedState)) {
            throw new EngramUserException("the store's encryption changed in another process meanwhile; nothing was changed,"
                    + " call the tool again");
        }
        for (Table t : TABLES) rewrite(c, t, from, to);
        for (String[] v : VECTORS) rewriteVectors(c, v[0], v[1], v[2], from, to);
        SqlCalls.update(c, SqliteStatements.PUT_MARK, SealedMemoryStore.STATE_MARK, newState);
    }

    private static void rewrite(Connection c, Table t, FieldSealer from, FieldSealer to) throws SQLException {
        List<String> names = t.columns().stream().map(Column::name).toList();
        String select = "SELECT rowid, " + String.join(", ", names) + " FROM " + t.name() + " WHERE rowid > ?"
                + (t.where().isEmpty() ? "" : " AND " + t.where()) + " ORDER BY rowid LIMIT " + PAGE;
        String update = "UPDATE " + t.name() + " SET " + String.join(" = ?, ", names) + " = ? WHERE rowid = ?";
        long after = Long.MIN_VALUE;
        try (PreparedStatement read = c.prepareStatement(select); PreparedStatement write = c.prepareStatement(update)) {
            while (true) {
                List<Object[]> rows = new ArrayList<>();
                read.setLong(1, after);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        Object[] row = new Object[names.size() + 1];
                        row[0] = rs.getLong(1);
                        for (int i = 0; i < names.size(); i++) row[i + 1] = rs.getString(i + 2);
                        rows.add(row);
                    }
                }
                if (rows.isEmpty()) return;
                for (Object[] row : rows) {
                    for (int i = 0; i < names.size(); i++) {
                        write.setString(i + 1, convert((String) row[i + 1], t.columns().get(i).kind(), from, to));
                    }
                    write.setLong(names.size() + 1, (long) row[0]);
                    write.addBatch();
                }
                write.executeBatch();
                after = (long) rows.get(rows.size() - 1)[0];
            }
        }
    }

    private static String convert(String stored, Kind kind, FieldSealer from, FieldSealer to) {
        if (stored == null) return null;
        return switch (kind) {
            case LOOKUP -> to.sealLookup(from.open(stored));
            case TEXT -> to.seal(from.open(stored));
            case TAGS -> TagsJson.encode(to.sealTags(from.openTags(TagsJson.decode(stored))));
        };
    }

    private static void rewriteVectors(Connection c, String table, String blob, String dims, FieldSealer from, FieldSealer to)
            throws SQLException {
        String select = "SELECT rowid, " + dims + ", " + blob + " FROM " + table + " WHERE rowid > ? AND " + blob
                + " IS NOT NULL ORDER BY rowid LIMIT " + PAGE;
        String update = "UPDATE " + table + " SET " + dims + " = ?, " + blob + " = ? WHERE rowid = ?";
        long after = Long.MIN_VALUE;
        try (PreparedStatement read = c.prepareStatement(select); PreparedStatement write = c.prepareStatement(update)) {
            while (true) {
                List<Object[]> rows = new ArrayList<>();
                read.setLong(1, after);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) rows.add(new Object[] {rs.getLong(1), rs.getInt(2), rs.getBytes(3)});
                }
                if (rows.isEmpty()) return;
                for (Object[] row : rows) {
                    float[] v = SqliteEmbeddings.decode(table + " row " + row[0], (int) row[1], (byte[]) row[2]);
                    float[] next = to.sealVector(from.openVector(v));
                    write.setInt(1, next.length);
                    write.setBytes(2, SqliteEmbeddings.encode(next));
                    write.setLong(3, (long) row[0]);
                    write.addBatch();
                }
                write.executeBatch();
                after = (long) rows.get(rows.size() - 1)[0];
            }
        }
    }
}
