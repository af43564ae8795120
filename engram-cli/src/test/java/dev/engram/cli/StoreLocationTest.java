package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the store lives by default on each platform, and the legacy ~/.engram store found again. */
class StoreLocationTest {
    @TempDir
    Path dir;

    private Path home() {
        return dir.resolve("home");
    }

    private static GlobalOptions options(String store, boolean project) {
        GlobalOptions o = new GlobalOptions();
        o.store = store;
        o.project = project;
        return o;
    }

    private StoreLocation locate(Map<String, String> env, Path cwd, GlobalOptions flags) {
        return new ConfigLoader(env, cwd, home(), "Linux").load(flags).store();
    }

    @Test
    void theProxysFilesCarryTheStoresApplicationId() {
        assertEquals(dev.engram.store.sqlite.DatabaseIdentity.APPLICATION_ID, dev.engram.proxy.stats.SqliteFile.APPLICATION_ID);
    }

    @Test
    void defaultDirectoryFollowsEachPlatformsConvention() {
        Path h = home();
        assertEquals(dir.resolve("xdg/engram"), DefaultStoreDir.of("Linux", Map.of("XDG_DATA_HOME", dir.resolve("xdg").toString()), h));
        assertEquals(h.resolve(".local/share/engram"), DefaultStoreDir.of("Linux", Map.of(), h));
        assertEquals(h.resolve(".local/share/engram"), DefaultStoreDir.of("Linux", Map.of("XDG_DATA_HOME", "relative/data"), h),
                "the XDG spec says to ignore a relative XDG_DATA_HOME");
        assertEquals(h.resolve(".local/share/engram"), DefaultStoreDir.of("FreeBSD", Map.of("XDG_DATA_HOME", " "), h));
        assertEquals(h.resolve("Library/Application Support/engram"),
                DefaultStoreDir.of("Mac OS X", Map.of("XDG_DATA_HOME", dir.resolve("xdg").toString()), h), "macOS ignores XDG");
        assertEquals(dir.resolve("LocalAppData/engram"),
                DefaultStoreDir.of("Windows 11", Map.of("LOCALAPPDATA", dir.resolve("LocalAppData").toString()), h));
        assertEquals(h.resolve("AppData").resolve("Local").resolve("engram"), DefaultStoreDir.of("Windows 10", Map.of(), h));
    }

    @Test
    void theDefaultStoreIsNeverTheHomesDotEngram() {
        StoreLocation s = new ConfigLoader(Map.of("XDG_DATA_HOME", dir.resolve("data").toString()), dir, home(), "Linux")
                .load(options(null, false)).store();
        assertEquals(dir.resolve("data/engram"), s.dir());
        assertEquals(StoreLocation.Source.DEFAULT, s.source());
        assertEquals("the default for this platform", s.why());
        assertEquals(home().resolve("Library/Application Support/engram"),
                new ConfigLoader(Map.of(), dir, home(), "Mac OS X").load(options(null, false)).storeDir());
    }

    @Test
    void anEarlierEngramsStoreInDotEngramIsFoundAndUsed() throws Exception {
        Path legacy = home().resolve(".engram");
        SqliteMemoryStore.open(legacy).close();
        // as the release before application ids wrote it
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + legacy.resolve("engram.db"));
             Statement st = c.createStatement()) {
            st.execute("PRAGMA application_id = 0");
        }
        StoreLocation s = locate(Map.of(), dir, options(null, false));
        assertEquals(legacy, s.dir());
        assertEquals(StoreLocation.Source.LEGACY, s.source());
        assertTrue(s.why().contains("earlier Engram") && s.why().contains(home().resolve(".local/share/engram").toString()), s.why());
    }

    @Test
    void doctorSaysWhereTheStoreIsAndWhy() throws Exception {
        // CliRunner's home is its directory: put an earlier Engram's store there
        SqliteMemoryStore.open(dir.resolve(".engram")).close();
        CliRunner cli = new CliRunner(dir, (config, embedding) -> Main.openEmbedded(config, java.time.Clock.systemUTC(), null));
        CliRunner.Run text = cli.run("doctor");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().startsWith("store " + dir.resolve(".engram") + "\n  the store an earlier Engram made in "
                + dir.resolve(".engram") + ", still used so no memory is lost (new stores go to "
                + dir.resolve(".local/share/engram") + ")\n"), text.out());
        CliRunner.Run json = cli.run("doctor", "--json");
        assertTrue(json.out().contains("\"store_source\":\"legacy\""), json.out());
        CliRunner.Run flag = cli.run("--store", dir.resolve("mine").toString(), "doctor", "--json");
        assertTrue(flag.out().contains("\"store_source\":\"flag\"") && flag.out().contains("\"store_reason\":\"given by --store\""),
                flag.out());
    }

    @Test
    void onceTheNewDefaultHoldsAStoreItWinsOverTheLegacyOne() throws Exception {
        SqliteMemoryStore.open(home().resolve(".engram")).close();
        SqliteMemoryStore.open(home().resolve(".local/share/engram")).close();
        assertEquals(StoreLocation.Source.DEFAULT, locate(Map.of(), dir, options(null, false)).source());
    }

    @Test
    void anotherToolsDotEngramIsPassedOverAndSaidSo() throws Exception {
        Path theirs = ForeignDatabases.writeOtherEngram(home().resolve(".engram"));
        String before = ForeignDatabases.sha256(theirs);
        StoreLocation s = locate(Map.of(), dir, options(null, false));
        assertEquals(home().resolve(".local/share/engram"), s.dir());
        assertEquals("the default for this platform; " + theirs + " belongs to another program and is not used", s.why());
        assertEquals(before, ForeignDatabases.sha256(theirs));
    }

    @Test
    void projectStoresAreNamedDotEngramStoreAndAnOldDotEngramOneIsStillFound() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectory(repo.resolve(".git"));
        assertEquals(repo.resolve(".engram-store"), locate(Map.of(), repo, options(null, true)).dir());

        ForeignDatabases.writeOtherEngram(repo.resolve(".engram"));
        assertEquals(repo.resolve(".engram-store"), locate(Map.of(), repo, options(null, true)).dir(),
                "a .engram that is not ours is not a legacy store");

        Path other = Files.createDirectories(dir.resolve("other"));
        Files.createDirectory(other.resolve(".git"));
        SqliteMemoryStore.open(other.resolve(".engram")).close();
        StoreLocation legacy = locate(Map.of(), other, options(null, true));
        assertEquals(other.resolve(".engram"), legacy.dir());
        assertEquals(StoreLocation.Source.LEGACY, legacy.source());
    }

    @Test
    void aForeignDatabaseAtTheChosenStoreStopsConfigurationNamingFileOwnerAndWayOut() throws Exception {
        Path theirs = ForeignDatabases.writeOtherEngram(home().resolve(".engram"));
        EngramUserException e = assertThrows(EngramUserException.class,
                () -> locate(Map.of("ENGRAM_HOME", home().resolve(".engram").toString()), dir, options(null, false)));
        assertTrue(e.getMessage().startsWith(theirs + " is not an Engram database: it has tables Engram never creates"), e.getMessage());
        assertTrue(e.getMessage().contains("Gentleman-Programming/engram"), e.getMessage());
        assertTrue(e.getMessage().contains("This store directory is given by the ENGRAM_HOME environment variable;"
                + " choose another with --store DIR or ENGRAM_HOME=DIR (the default is " + home().resolve(".local/share/engram") + ")"),
                e.getMessage());
        assertThrows(EngramUserException.class, () -> locate(Map.of(), dir, options(home().resolve(".engram").toString(), false)));
        assertFalse(Files.exists(home().resolve(".engram/index")));
    }
}
