package dev.engram.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.analysis.TagVocabulary;
import dev.engram.crypto.SealedStoreException;
import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkSpec;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallSettings;
import dev.engram.engine.RememberCommand;
import dev.engram.error.EngramUserException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.StoreEncryption;
import dev.engram.testing.ConceptEmbedder;
import dev.engram.testing.MutableClock;
import dev.engram.testing.PlainCost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store encrypted at rest (toon's memory_encrypt): nothing readable on disk, fail closed, crash-safe conversion. */
class EncryptedStoreTest {
    private static final String KEY = "0f".repeat(32);
    private static final String OTHER_KEY = "a1".repeat(32);
    /** One distinctive word per sealed place: content, key, tag, file, version, edge label, zone, mark, tombstone. */
    private static final List<String> WORDS = List.of("zanzibarquux", "marmaladekey", "xylophonetag", "quokkafile",
            "previouswombat", "labelnarwhal", "zonedescpelican", "markvalueibis", "tombstoneaxolotl");

    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final List<EmbeddedStore> open = new ArrayList<>();

    @AfterEach
    void closeAll() {
        open.forEach(EmbeddedStore::close);
    }

    private EmbeddedStore store(String key) {
        EmbeddedStore s = EmbeddedStore.open(dir, clock, key);
        open.add(s);
        return s;
    }

    private void close(EmbeddedStore s) {
        open.remove(s);
        s.close();
    }

    private Engine engine(EmbeddedStore s) {
        return new Engine(s.store(), s.index(), clock, TagVocabulary.builtInOnly(), new ConceptEmbedder(), RecallSettings.defaults());
    }

    private static List<String> keys(Engine e, String query) {
        return e.recall(RecallQuery.of(query), PlainCost.INSTANCE).results().stream().map(r -> r.memory().key()).toList();
    }

    private static List<ExportRecord> export(Engine e) {
        List<ExportRecord> out = new ArrayList<>();
        e.export(null, out::add);
        return out;
    }

    /** Every kind of field the store seals gets one of WORDS. */
    private void seed(EmbeddedStore s) {
        Engine e = engine(s);
        e.remember(RememberCommand.builder("Postgres is sluggish under load, see zanzibarquux").key("marmaladekey")
                .type(MemoryType.FACT).tags(List.of("xylophonetag")).file("src/quokkafile.ts").build());
        e.remember(RememberCommand.builder("The puppy needs a walk").key("pets").type(MemoryType.FACT)
                .links(List.of(new LinkSpec(EdgeType.RELATED, "marmaladekey"))).build());
        e.remember(RememberCommand.builder("previouswombat was the old text").key("versioned").type(MemoryType.FACT).build());
        clock.advance(java.time.Duration.ofMinutes(1));
        e.amend(new AmendCommand("versioned", null, "The new text of the versioned memory", null, null, null));
        e.remember(RememberCommand.builder("tombstoneaxolotl will be deleted").key("doomed").type(MemoryType.FACT).build());
        e.forget(new ForgetCommand("doomed", null, ForgetAction.HARD));
        String pets = s.store().getByKey("default", "pets").orElseThrow().id();
        String pg = s.store().getByKey("default", "marmaladekey").orElseThrow().id();
        s.store().write(tx -> {
            tx.addEdge(new dev.engram.memory.Edge(pets, pg, EdgeType.RELATED, "labelnarwhal", clock.instant()));
            tx.putZone(new ZoneInfo("default", "short", "zonedescpelican", clock.instant(), clock.instant()));
            tx.putMark("custom.note", "markvalueibis");
            return null;
        });
        s.index().catchUp();
    }

    /** Which of WORDS any file under the store directory (database, WAL, index) holds, as bytes. */
    private List<String> wordsOnDisk() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes;
                try {
                    bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                } catch (java.nio.file.NoSuchFileException gone) {
                    continue; // a Lucene file replaced by a commit meanwhile
                }
                for (String w : WORDS) if (bytes.contains(w) && !found.contains(w)) found.add(w);
            }
        }
        return found;
    }

    private Map<String, String> fileHashes() throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    @Test
    void anEncryptedStoreShowsNoWordOnDiskAndOpensOnlyWithItsKey() throws Exception {
        EmbeddedStore s = store(null);
        seed(s);
        List<ExportRecord> before = export(engine(s));
        s.index().catchUp();
        assertEquals(WORDS, wordsOnDisk(), "the test can fail: plain, every word is on disk");

        StoreEncryption enc = s.store().encryption().orElseThrow();
        enc.encrypt(KEY);
        assertTrue(enc.encrypted());
        Engine e = engine(s);
        assertEquals(before, export(e), "encrypting changes nothing a reader sees");
        assertEquals("marmaladekey", keys(e, "zanzibarquux").get(0), "lexical recall right after encrypting (index in memory)");
        String petsId = s.store().getByKey("default", "pets").orElseThrow().id();
        assertEquals(petsId, s.store().find("default", "pets").orElseThrow().id(), "a sealed key found by its reference");
        assertEquals("pets", s.store().find("default", petsId).orElseThrow().key(), "and by its id, opened");
        before = export(e); // the recall counted its reads
        close(s);

        assertEquals(List.of(), wordsOnDisk(), "nothing readable anywhere under the store directory");
        assertFalse(Files.exists(dir.resolve("index")), "no on-disk index while encrypted");
        assertTrue(Files.isRegularFile(dir.resolve(SealedIndexSnapshot.FILE)), "the index is kept sealed between runs");

        Map<String, String> hashes = fileHashes();
        SealedStoreException none = assertThrows(SealedStoreException.class, () -> store(null));
        assertTrue(none.getMessage().contains("TOON_MEMORY_KEY") && none.getMessage().contains("no key"), none.getMessage());
        SealedStoreException wrong = assertThrows(SealedStoreException.class, () -> store(OTHER_KEY));
        assertTrue(wrong.getMessage().contains("not this store's key"), wrong.getMessage());
        assertThrows(SealedStoreException.class, () -> store("abc"));
        assertEquals(hashes.keySet().stream().filter(f -> !f.endsWith("-shm")).toList(),
                fileHashes().keySet().stream().filter(f -> !f.endsWith("-shm")).toList(), "no file created");
        assertEquals(hashes.get("engram.db"), fileHashes().get("engram.db"), "nothing written by a failed open");

        s = store(KEY);
        e = engine(s);
        assertEquals(before, export(e), "every memory, edge and version intact");
        assertEquals("marmaladekey", keys(e, "zanzibarquux").get(0), "lexical recall after a restart with the key");
        assertEquals("marmaladekey", keys(e, "database latency").get(0), "semantic recall: vectors sealed, opened, indexed");
        assertEquals("labelnarwhal", s.store().edges(s.store().getByKey("default", "pets").orElseThrow().id()).stream()
                .filter(x -> x.label() != null).findFirst().orElseThrow().label());
        String pets = s.store().getByKey("default", "pets").orElseThrow().id();
        assertEquals(s.store().edges(pets).stream().filter(x -> x.fromId().equals(pets)).toList(),
                s.store().outgoingEdges("default").get(pets), "the zone's edges in one read are opened as edges(id) opens them");
        assertEquals("markvalueibis", s.store().mark("custom.note").orElseThrow());
        assertEquals("zonedescpelican", s.store().zoneInfo("default").orElseThrow().description());
        e.remember(RememberCommand.builder("written while encrypted: zanzibarquux again").key("later").type(MemoryType.FACT).build());
        List<ExportRecord> encryptedExport = export(e);
        close(s);
        assertEquals(List.of(), wordsOnDisk(), "a write while encrypted is sealed too");

        Files.write(dir.resolve(SealedIndexSnapshot.FILE), new byte[] {1, 2, 3}); // a damaged snapshot costs a rebuild only
        s = store(KEY);
        assertTrue(keys(engine(s), "zanzibarquux").containsAll(List.of("later", "marmaladekey")), "the write since the last snapshot too");
        close(s);
        encryptedExport = null;

        s = store(KEY);
        encryptedExport = export(engine(s));
        EngramUserException wrongDecrypt = assertThrows(EngramUserException.class,
                () -> open.get(0).store().encryption().orElseThrow().decrypt(OTHER_KEY));
        assertTrue(wrongDecrypt.getMessage().contains("Wrong key"), wrongDecrypt.getMessage());
        s.store().encryption().orElseThrow().decrypt(KEY);
        assertEquals(encryptedExport, export(engine(s)), "decrypt: back to plain, everything intact");
        close(s);
        s = store(null);
        assertTrue(keys(engine(s), "zanzibarquux").containsAll(List.of("later", "marmaladekey")));
        assertTrue(Files.isDirectory(dir.resolve("index")), "plain again: the index is back on disk");
        assertFalse(Files.exists(dir.resolve(SealedIndexSnapshot.FILE)));
    }

    @Test
    void aConversionThatFailsMidwayLeavesTheStoreAsItWas() throws Exception {
        EmbeddedStore s = store(null);
        seed(s);
        List<ExportRecord> before = export(engine(s));
        // memories and tombstones convert first; the versions table then refuses: the failure is injected mid-way
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            st.execute("PRAGMA busy_timeout=5000");
            st.execute("CREATE TRIGGER injected_failure BEFORE UPDATE ON versions BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
        }
        StoreEncryption enc = s.store().encryption().orElseThrow();
        RuntimeException failure = assertThrows(RuntimeException.class, () -> enc.encrypt(KEY));
        assertTrue(String.valueOf(failure.getMessage()).contains("injected failure"), String.valueOf(failure.getMessage()));
        assertFalse(enc.encrypted());
        assertEquals(before, export(engine(s)), "nothing lost, nothing half-sealed");
        close(s);

        s = store(null); // still plain: opens without a key
        assertEquals(before, export(engine(s)));
        assertEquals("marmaladekey", keys(engine(s), "zanzibarquux").get(0));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            st.execute("PRAGMA busy_timeout=5000");
            st.execute("DROP TRIGGER injected_failure");
        }
        s.store().encryption().orElseThrow().encrypt(KEY);
        assertTrue(s.store().encryption().orElseThrow().encrypted(), "the same conversion succeeds once nothing fails");
    }

    @Test
    void anotherProcessOnTheStoreSeesItEncryptedAndFailsClosedWithoutTheKey() throws Exception {
        EmbeddedStore a = store(KEY);
        seed(a);
        EmbeddedStore withoutKey = store(null); // a second opener of the same files, as another process is
        EmbeddedStore withKey = store(KEY);
        a.store().encryption().orElseThrow().encrypt(KEY);

        Engine blind = engine(withoutKey);
        SealedStoreException write = assertThrows(SealedStoreException.class, () -> blind.remember(
                RememberCommand.builder("quokkafile leaked?").key("leak").type(MemoryType.FACT).build()));
        assertTrue(write.getMessage().contains("TOON_MEMORY_KEY"), write.getMessage());
        assertThrows(SealedStoreException.class, () -> withoutKey.store().getByKey("default", "versioned"));
        assertThrows(SealedStoreException.class, () -> withoutKey.store().find("default", "versioned"));

        // still plain to this opener: its one lookup misses the sealed key, re-reads the state and looks again, sealed
        assertEquals("versioned", withKey.store().find("default", "versioned").orElseThrow().key());
        Engine sighted = engine(withKey);
        sighted.remember(RememberCommand.builder("the other process writes zonedescpelican").key("from-b").type(MemoryType.FACT).build());
        assertTrue(withKey.store().encryption().orElseThrow().encrypted(), "it noticed the conversion at its next write");
        assertEquals("from-b", keys(sighted, "zonedescpelican").get(0));
        assertEquals("from-b", a.store().getByKey("default", "from-b").orElseThrow().key());
        open.forEach(EmbeddedStore::close);
        open.clear();
        assertEquals(List.of(), wordsOnDisk(), "nothing in the clear from either process");
    }
}
