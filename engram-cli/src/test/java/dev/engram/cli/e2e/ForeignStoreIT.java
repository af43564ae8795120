package dev.engram.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio servers ({@code engram mcp}, {@code engram proxy}) as an agent starts them, from the built
 * jar: with another program's {@code engram.db} as the store they exit 2 with the message on stderr,
 * write nothing to the protocol channel, and leave the file and its directory as they were.
 */
class ForeignStoreIT {
    @TempDir
    Path dir;

    @Test
    void stdioServersRefuseAnotherProgramsDatabase() throws Exception {
        Path jar = Path.of(System.getProperty("engram.jar", "target/engram.jar")).toAbsolutePath();
        Path store = Files.createDirectories(dir.resolve("dot-engram"));
        Path db = store.resolve("engram.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, project TEXT NOT NULL)");
            st.execute("CREATE TABLE observations (id INTEGER PRIMARY KEY, session_id TEXT, content TEXT)");
            st.execute("CREATE VIRTUAL TABLE observations_fts USING fts5(content, content='observations', content_rowid='id')");
            st.execute("INSERT INTO sessions VALUES ('s1', 'demo')");
        }
        String before = sha256(db);
        List<String> filesBefore = listing(store);
        Path fakeHome = Files.createDirectories(dir.resolve("home"));

        for (String command : List.of("mcp", "proxy")) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", jar.toString(), "--store", store.toString(), command);
            pb.environment().put("HOME", fakeHome.toString()); // nothing of this test may reach the real home
            Process p = pb.start();
            p.getOutputStream().close(); // an agent that hangs up at once: a server that did start exits too
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), command + " did not exit");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, p.exitValue(), command + ": " + err);
            assertTrue(err.startsWith("engram: " + db + " is not an Engram database:")
                    && err.contains("Gentleman-Programming/engram") && err.contains("--store DIR or ENGRAM_HOME=DIR"), command + ": " + err);
            assertEquals("", out, command + " wrote to the protocol channel");
            assertEquals(before, sha256(db), command + " changed the file");
            assertEquals(filesBefore, listing(store), command + " created files beside it");
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static List<String> listing(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
