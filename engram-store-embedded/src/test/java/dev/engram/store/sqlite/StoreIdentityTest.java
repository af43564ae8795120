package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.MemoryFixtures;
import dev.engram.store.EmbeddedStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Engram's databases carry its application id; another program's SQLite file is never written. */
class StoreIdentityTest {
    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);

    /** The tables Gentleman-Programming/engram creates in ~/.engram/engram.db, in WAL mode as it runs. */
    static final List<String> OTHER_ENGRAM = List.of(
            "PRAGMA journal_mode=WAL",
            "CREATE TABLE sessions (id TEXT PRIMARY KEY, project TEXT NOT NULL, directory TEXT NOT NULL,"
                    + " started_at TEXT NOT NULL DEFAULT (datetime('now')), ended_at TEXT, summary TEXT)",
            "CREATE TABLE observations (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                    + " type TEXT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL, project TEXT)",
            "CREATE VIRTUAL TABLE observations_fts USING fts5(title, content, content='observations', content_rowid='id')",
            "CREATE TABLE user_prompts (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, content TEXT NOT NULL)",
            "INSERT INTO sessions (id, project, directory) VALUES ('s1', 'demo', '/src/demo')",
            "INSERT INTO observations (session_id, type, title, content) VALUES ('s1', 'decision', 'WAL', 'Use WAL.')");

    private Path db() {
        return dir.resolve("engram.db");
    }

    private void sql(List<String> statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private int headerApplicationId() throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(db())).getInt(68);
    }

    @Test
    void anotherEngramsDatabaseIsRefusedAndLeftByteForByte() throws Exception {
        sql(OTHER_ENGRAM);
        String before = sha256(db());
        List<String> filesBefore = listing();
        assertEquals(List.of("engram.db"), filesBefore, "the other tool closed cleanly: no -wal, no -shm");

        ForeignDatabaseException e = assertThrows(ForeignDatabaseException.class, () -> EmbeddedStore.open(dir, clock));
        assertTrue(e.getMessage().startsWith(db() + " is not an Engram database: it has tables Engram never creates"
                + " (observations, observations_fts, sessions, user_prompts) and no Engram application id;"
                + " it looks like the database of Gentleman-Programming/engram"), e.getMessage());
        assertThrows(ForeignDatabaseException.class, () -> SqliteMemoryStore.open(dir));

        assertEquals(before, sha256(db()), "not one byte changed");
        assertEquals(filesBefore, listing(), "no index/, no -wal or -shm files beside it");
    }

    @Test
    void aDatabaseInUseByItsOwnerIsRefusedToo() throws Exception {
        sql(OTHER_ENGRAM);
        // the other tool is running: it holds the file open in WAL mode with a commit not yet checkpointed
        try (Connection theirs = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement st = theirs.createStatement()) {
            st.execute("PRAGMA wal_autocheckpoint=0");
            st.execute("INSERT INTO sessions (id, project, directory) VALUES ('s2', 'demo', '/src/demo')");
            assertTrue(Files.exists(dir.resolve("engram.db-wal")));
            String before = sha256(db());
            String walBefore = sha256(dir.resolve("engram.db-wal"));
            assertInstanceOf(DatabaseIdentity.Foreign.class, DatabaseInspector.inspect(db()));
            assertThrows(ForeignDatabaseException.class, () -> EmbeddedStore.open(dir, clock));
            assertEquals(before, sha256(db()));
            assertEquals(walBefore, sha256(dir.resolve("engram.db-wal")), "no checkpoint of their log either");
            assertTrue(Files.notExists(dir.resolve("index")));
        }
    }

    @Test
    void anotherApplicationIdIsRefusedFromTheHeaderAlone() throws Exception {
        sql(List.of("PRAGMA application_id = 1196444487", "CREATE TABLE memories (id TEXT)")); // 'GPKG', a GeoPackage
        String before = sha256(db());
        DatabaseIdentity.Foreign f = assertInstanceOf(DatabaseIdentity.Foreign.class, DatabaseInspector.inspect(db()));
        assertEquals("it carries the SQLite application id 0x47504B47 ('GPKG'), not Engram's 0x4547524D ('EGRM')",
                f.explanation(), "tables named like ours do not make it ours");
        assertThrows(ForeignDatabaseException.class, () -> EmbeddedStore.open(dir, clock));
        assertEquals(before, sha256(db()));
    }

    @Test
    void aFileThatIsNotSqliteIsRefused() throws Exception {
        Files.writeString(db(), "{\"sessions\": []}\n".repeat(10));
        String before = sha256(db());
        ForeignDatabaseException e = assertThrows(ForeignDatabaseException.class, () -> EmbeddedStore.open(dir, clock));
        assertTrue(e.getMessage().contains("it is not a SQLite database"), e.getMessage());
        assertEquals(before, sha256(db()));
    }

    @Test
    void onlySomeOfOurTablesWithoutOurIdIsNotOurs() throws Exception {
        sql(List.of("CREATE TABLE memories (id TEXT)")); // user_version 0: no Engram migration wrote this
        assertInstanceOf(DatabaseIdentity.Foreign.class, DatabaseInspector.inspect(db()));
    }

    @Test
    void aNewStoreIsStampedAndRecognisedByItsHeader() throws Exception {
        assertInstanceOf(DatabaseIdentity.Absent.class, DatabaseInspector.inspect(db()));
        SqliteMemoryStore.open(dir).close();
        assertEquals(DatabaseIdentity.APPLICATION_ID, headerApplicationId(), "checkpointed into the file itself");
        assertArrayEquals("EGRM".getBytes(StandardCharsets.US_ASCII), bytes68to72(Files.readAllBytes(db())));
        assertEquals(new DatabaseIdentity.Engram(SchemaMigrations.STEPS.size(), true), DatabaseInspector.inspect(db()));
    }

    private static byte[] bytes68to72(byte[] file) {
        return java.util.Arrays.copyOfRange(file, 68, 72);
    }

    @Test
    void aZeroByteFileIsAnEmptyDatabase() throws Exception {
        Files.createFile(db());
        assertInstanceOf(DatabaseIdentity.Absent.class, DatabaseInspector.inspect(db()));
        SqliteMemoryStore.open(dir).close();
        assertEquals(DatabaseIdentity.APPLICATION_ID, headerApplicationId());
    }

    @Test
    void aStoreOfTheCurrentReleaseWithoutAnIdIsStampedAndKeepsEveryMemory() throws Exception {
        List<Memory> written = new ArrayList<>();
        for (int i = 1; i <= 25; i++) written.add(MemoryFixtures.full(clock, i, i % 2 == 0 ? "work" : "home"));
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            store.write(tx -> {
                written.forEach(tx::insert);
                return null;
            });
        }
        // what the release before application ids left: the same file with id 0
        sql(List.of("PRAGMA application_id = 0", "PRAGMA wal_checkpoint(TRUNCATE)"));
        assertEquals(0, headerApplicationId());
        assertEquals(new DatabaseIdentity.Engram(SchemaMigrations.STEPS.size(), false), DatabaseInspector.inspect(db()));

        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(written.size(), store.count());
            for (Memory m : written) assertEquals(Optional.of(m), store.get(m.id()));
        }
        assertEquals(DatabaseIdentity.APPLICATION_ID, headerApplicationId());
        assertEquals(new DatabaseIdentity.Engram(SchemaMigrations.STEPS.size(), true), DatabaseInspector.inspect(db()));
    }

    @Test
    void theMigrationRechecksUnderTheWriteLock() throws Exception {
        // a file that turned foreign after the read-only inspection: the migration itself refuses
        sql(OTHER_ENGRAM);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db())) {
            assertThrows(ForeignDatabaseException.class,
                    () -> new SchemaMigrations(SchemaMigrations.STEPS).migrate(c, db()));
            try (Statement st = c.createStatement()) {
                assertEquals(0, SchemaMigrations.userVersion(st));
                assertEquals(0, DatabaseInspector.intPragma(st, SqliteStatements.APPLICATION_ID));
                assertTrue(DatabaseInspector.tableNames(st).stream().noneMatch(t -> t.equals("memories")));
            }
        }
    }

    @Test
    void ourTableListIsExactlyWhatTheMigrationsCreate() throws Exception {
        SqliteMemoryStore.open(dir).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement st = c.createStatement()) {
            Set<String> tables = new TreeSet<>(DatabaseInspector.tableNames(st));
            tables.removeIf(t -> t.startsWith("sqlite_"));
            assertEquals(new TreeSet<>(SqliteStatements.TABLES), tables);
        }
    }
}
