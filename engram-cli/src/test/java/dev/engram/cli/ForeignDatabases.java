package dev.engram.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

/** Test fixtures: another program's SQLite file where Engram's store would be. */
final class ForeignDatabases {
    private ForeignDatabases() {
    }

    /** Gentleman-Programming/engram's ~/.engram/engram.db as it leaves it: WAL mode, its tables, one session. */
    static Path writeOtherEngram(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path db = dir.resolve("engram.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            for (String sql : List.of(
                    "PRAGMA journal_mode=WAL",
                    "CREATE TABLE sessions (id TEXT PRIMARY KEY, project TEXT NOT NULL, directory TEXT NOT NULL)",
                    "CREATE TABLE observations (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                            + " type TEXT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL)",
                    "CREATE VIRTUAL TABLE observations_fts USING fts5(title, content, content='observations', content_rowid='id')",
                    "INSERT INTO sessions VALUES ('s1', 'demo', '/src/demo')",
                    "INSERT INTO observations (session_id, type, title, content) VALUES ('s1', 'decision', 'WAL', 'Use WAL.')")) {
                st.execute(sql);
            }
        }
        return db;
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
