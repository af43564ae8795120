package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --store postgresql://...} and {@code ENGRAM_STORE}: the team mode chosen from the command line. */
class PostgresStoreCliTest {
    private static final String SERVER = TestPostgres.SERVER;

    @TempDir
    Path dir;

    private StoreLocation locate(Map<String, String> env, String storeFlag) {
        GlobalOptions o = new GlobalOptions();
        o.store = storeFlag;
        return new ConfigLoader(env, dir, dir.resolve("home"), "Linux").load(o).store();
    }

    @Test
    void aUrlNamesAPostgresStoreWhoseIndexStaysLocal() {
        StoreLocation flag = locate(Map.of("ENGRAM_HOME", dir.resolve("node-a").toString()), "postgresql://u@db:5432/team");
        assertTrue(flag.postgres());
        assertEquals("postgresql://u@db:5432/team", flag.url());
        assertEquals(dir.resolve("node-a/replica-index"), flag.dir());
        assertEquals(StoreLocation.Source.FLAG, flag.source());
        StoreLocation env = locate(Map.of("ENGRAM_STORE", "postgresql://u@db/team?schema=t1"), null);
        assertEquals(StoreLocation.Source.ENVIRONMENT, env.source());
        assertEquals(dir.resolve("home/.local/share/engram/replica-index"), env.dir());
        assertTrue(env.why().contains("ENGRAM_STORE") && env.why().contains("schema t1"), env.why());
        assertNull(locate(Map.of(), dir.resolve("plain").toString()).url(), "a directory is still the embedded store");
    }

    @Test
    void aBadUrlOrAnEnvironmentDirectoryIsRefusedSayingWhatToSend() {
        ConfigException noDb = assertThrows(ConfigException.class, () -> locate(Map.of(), "postgresql://db"));
        assertTrue(noDb.getMessage().contains("names no database"), noDb.getMessage());
        ConfigException dirInEnv = assertThrows(ConfigException.class, () -> locate(Map.of("ENGRAM_STORE", "/srv/engram"), null));
        assertTrue(dirInEnv.getMessage().contains("ENGRAM_HOME"), dirInEnv.getMessage());
        assertFalse(dirInEnv.getMessage().contains("Exception"), dirInEnv.getMessage());
    }

    @Test
    void twoProcessesOnOneDatabaseShareTheirMemories() throws Exception {
        String schema = "engram_cli_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String url = TestPostgres.withSchema(schema);
        Assumptions.assumeTrue(TestPostgres.reachable(), "PostgreSQL not reachable at " + SERVER + "; set ENGRAM_TEST_POSTGRES or start it");
        try {
            CliRunner a = new CliRunner(dir.resolve("a"), Map.of("ENGRAM_STORE", url),
                    (config, embedding) -> Main.openEmbedded(config, java.time.Clock.systemUTC(), null));
            CliRunner b = new CliRunner(dir.resolve("b"), Map.of("ENGRAM_STORE", url),
                    (config, embedding) -> Main.openEmbedded(config, java.time.Clock.systemUTC(), null));
            CliRunner.Run wrote = a.run("remember", "The billing service retries webhooks three times");
            assertEquals(0, wrote.exitCode(), wrote.err());
            CliRunner.Run found = b.run("recall", "billing webhooks");
            assertEquals(0, found.exitCode(), found.err());
            assertTrue(found.out().contains("retries webhooks three times"), found.out());
        } finally {
            try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }
}
