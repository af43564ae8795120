package dev.engram.proxy.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteFileTest {
    @TempDir
    Path dir;

    @Test
    void aNewFileCarriesEngramsApplicationId() throws Exception {
        Path file = dir.resolve("proxy-stats.db");
        new SqliteFile(file, List.of("CREATE TABLE IF NOT EXISTS calls (id INTEGER)")).close();
        assertEquals(SqliteFile.APPLICATION_ID, ByteBuffer.wrap(Files.readAllBytes(file)).getInt(68));
        new SqliteFile(file, List.of("CREATE TABLE IF NOT EXISTS calls (id INTEGER)")).close(); // and opens again
    }

    @Test
    void aFileWithAnotherProgramsIdIsRefusedUnchanged() throws Exception {
        Path file = dir.resolve("proxy-cache.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("PRAGMA application_id = 1196444487"); // 'GPKG'
            st.execute("CREATE TABLE features (id INTEGER)");
        }
        byte[] before = Files.readAllBytes(file);
        EngramUserException e = assertThrows(EngramUserException.class,
                () -> new SqliteFile(file, List.of("CREATE TABLE IF NOT EXISTS cache (k TEXT)")));
        assertTrue(e.getMessage().startsWith(file + " is not Engram's (SQLite application id 0x47504B47)"), e.getMessage());
        assertTrue(Arrays.equals(before, Files.readAllBytes(file)), "not one byte changed");
    }
}
