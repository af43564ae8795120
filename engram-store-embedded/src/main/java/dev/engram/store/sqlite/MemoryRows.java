package dev.engram.store.sqlite;

import dev.engram.store.jdbc.MemoryRowCodec;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** SQLite's rows ({@link SqliteStatements}' column order): tags as a JSON array in TEXT, times in INTEGER. */
final class MemoryRows {
    private MemoryRows() {
    }

    static final MemoryRowCodec ROWS = new MemoryRowCodec(new MemoryRowCodec.TagColumn() {
        @Override
        public void bind(PreparedStatement ps, int index, List<String> tags) throws SQLException {
            ps.setString(index, TagsJson.encode(tags));
        }

        @Override
        public List<String> read(ResultSet rs, String column) throws SQLException {
            return TagsJson.decode(rs.getString(column));
        }
    }, Types.INTEGER);
}
