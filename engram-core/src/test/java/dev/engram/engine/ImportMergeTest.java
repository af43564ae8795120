package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.memory.MemoryVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Import over a store that already holds the memories: the merge rule of {@link ImportPlan}. */
class ImportMergeTest {

    private static List<ExportRecord> export(EngineFixture f) {
        List<ExportRecord> out = new ArrayList<>();
        f.engine.export(null, out::add);
        return out;
    }

    private static Memory memory(EngineFixture f, String key) {
        return f.store.getByKey("default", key).orElseThrow();
    }

    private static List<String> versionContents(EngineFixture f, String key) {
        return f.store.versions(memory(f, key).id()).stream().map(MemoryVersion::content).toList();
    }

    private static void amend(EngineFixture f, String key, String content) {
        f.clock.advance(Duration.ofMinutes(1));
        f.engine.amend(new AmendCommand(key, null, content, null, null));
    }

    /** The stores keep milliseconds: a source's finer time for the same state (PostgreSQL's microseconds) is not newer. */
    @Test
    void theSameStateWithFinerTimesIsUnchanged() {
        EngineFixture f = new EngineFixture();
        f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        ExportRecord stored = export(f).get(0);
        Memory m = stored.memory();
        Memory finer = m.toBuilder().updatedAt(m.updatedAt().plusNanos(123_000)).createdAt(m.createdAt().plusNanos(123_000)).build();
        ImportResult r = f.engine.importAll(ImportCommand.of(List.of(new ExportRecord(finer, stored.edges(), stored.versions()))));
        assertEquals(1, r.count(ImportOutcome.UNCHANGED), r.toString());
    }

    /** The case: an older export over an amended memory reverted its content and dropped its versions. */
    @Test
    void anOlderExportOverAnAmendedMemoryKeepsTheNewerContentAndEveryVersion() {
        EngineFixture f = new EngineFixture();
        f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        List<ExportRecord> old = export(f);
        amend(f, "pool", "The pool has 64 connections");
        amend(f, "pool", "The pool has 128 connections");
        List<ExportRecord> before = export(f);

        ImportResult r = f.engine.importAll(ImportCommand.of(old));

        assertEquals(1, r.count(ImportOutcome.KEPT_NEWER), r.toString());
        assertEquals(0, r.versionsAdded(), "the file's content already is version 1");
        assertEquals(before, export(f), "nothing changed");
        assertEquals("The pool has 128 connections", memory(f, "pool").content());
        assertEquals(List.of("The pool has 8 connections", "The pool has 64 connections"), versionContents(f, "pool"));
    }

    @Test
    void anOlderStateTheStoreNeverHadIsKeptAsAVersion() {
        EngineFixture other = new EngineFixture();
        other.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        EngineFixture f = new EngineFixture();
        f.engine.importAll(ImportCommand.of(export(other)));
        other.clock.advance(Duration.ofMinutes(1));
        other.engine.amend(new AmendCommand("pool", null, "Edited elsewhere: 16 connections", null, null));
        List<ExportRecord> fromOther = export(other);
        f.clock.advance(Duration.ofMinutes(5));
        f.engine.amend(new AmendCommand("pool", null, "Edited here, later: 64 connections", null, null));

        ImportResult r = f.engine.importAll(ImportCommand.of(fromOther));

        assertEquals(ImportOutcome.KEPT_NEWER, r.lines().get(0).outcome());
        assertTrue(r.lines().get(0).detail().contains("the file's content is kept as a version"), r.lines().get(0).detail());
        assertEquals("Edited here, later: 64 connections", memory(f, "pool").content());
        assertEquals(List.of("The pool has 8 connections", "Edited elsewhere: 16 connections"), versionContents(f, "pool"),
                "the stored v1 and the file's v1 are the same entry; the file's current content is appended");
        assertEquals(1, r.versionsAdded());
    }

    @Test
    void aNewerFileUpdatesAndTheReplacedContentBecomesAVersion() {
        EngineFixture f = new EngineFixture();
        f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        EngineFixture copy = new EngineFixture();
        copy.engine.importAll(ImportCommand.of(export(f)));
        // changed in the copy without a version (a pin), then amended: the file carries v1 and newer content
        amend(copy, "pool", "The pool has 64 connections");

        ImportResult r = f.engine.importAll(ImportCommand.of(export(copy)));

        assertEquals(1, r.count(ImportOutcome.UPDATED), r.toString());
        assertEquals("The pool has 64 connections", memory(f, "pool").content());
        assertEquals(List.of("The pool has 8 connections"), versionContents(f, "pool"),
                "the stored content was already the file's version 1: kept once, not twice");
        assertEquals(export(copy), export(f), "the store now holds the newer state exactly");
    }

    /** An edge whose other end is in neither the file nor the store cannot be added; the result counts it. */
    @Test
    void anEdgeToAMissingMemoryIsCountedNotLostQuietly() {
        EngineFixture source = new EngineFixture();
        source.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        ExportRecord r = export(source).get(0);
        ExportRecord withEdge = new ExportRecord(r.memory(), List.of(new Edge(r.memory().id(), "m_zzzzzzzzzz", EdgeType.RELATED, null,
                source.clock.instant())), r.versions());
        EngineFixture target = new EngineFixture();
        ImportResult dry = target.engine.importAll(new ImportCommand(List.of(withEdge), ImportPolicy.KEEP_NEWER, true));
        assertEquals(0, dry.edgesAdded());
        assertEquals(1, dry.edgesDropped());
        ImportResult real = target.engine.importAll(ImportCommand.of(List.of(withEdge)));
        assertEquals(1, real.count(ImportOutcome.CREATED));
        assertEquals(1, real.edgesDropped());
    }

    @Test
    void aDryRunReportsThePlanAndWritesNothing() {
        EngineFixture f = new EngineFixture();
        f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        List<ExportRecord> old = export(f);
        amend(f, "pool", "The pool has 64 connections");
        EngineFixture other = new EngineFixture();
        other.remember("fresh", "Only in the file", MemoryType.FACT, List.of("x"));
        List<ExportRecord> file = new ArrayList<>(old);
        file.addAll(export(other));
        List<ExportRecord> before = export(f);
        long head = f.store.headSeq();

        ImportResult dry = f.engine.importAll(new ImportCommand(file, ImportPolicy.REPLACE, true));

        assertTrue(dry.dryRun());
        assertEquals(List.of(ImportOutcome.REPLACED, ImportOutcome.CREATED), dry.lines().stream().map(ImportResult.Line::outcome).toList());
        assertEquals(before, export(f), "a dry run writes nothing");
        assertEquals(head, f.store.headSeq());
        ImportResult real = f.engine.importAll(new ImportCommand(file, ImportPolicy.REPLACE, false));
        assertEquals(new ImportResult(dry.lines(), dry.versionsAdded(), dry.edgesAdded(), dry.edgesDropped(), false), real,
                "the dry run predicted exactly what the import did");
    }

    @Test
    void replaceRevertsToTheFileButKeepsTheOverwrittenContentAsAVersion() {
        EngineFixture f = new EngineFixture();
        f.remember("pool", "The pool has 8 connections", MemoryType.FACT, List.of("redis"));
        List<ExportRecord> old = export(f);
        amend(f, "pool", "The pool has 64 connections");

        ImportResult r = f.engine.importAll(new ImportCommand(old, ImportPolicy.REPLACE, false));

        assertEquals(1, r.count(ImportOutcome.REPLACED), r.toString());
        assertEquals("The pool has 8 connections", memory(f, "pool").content());
        assertEquals(old.get(0).memory(), memory(f, "pool"), "the file's state, every field");
        assertEquals(List.of("The pool has 8 connections", "The pool has 64 connections"), versionContents(f, "pool"),
                "the amended content survives as version 2");
    }

    @Test
    void importingTheSameFileTwiceAddsNothingTheSecondTime() {
        EngineFixture f = new EngineFixture();
        f.remember("a", "Alpha fact", MemoryType.FACT, List.of("x"));
        f.remember("b", "Beta decision", MemoryType.DECISION, List.of("y"));
        f.engine.link(new LinkCommand("b", "a", EdgeType.DEPENDS_ON, null, false));
        List<ExportRecord> old = export(f);
        amend(f, "a", "Alpha fact, revised");
        EngineFixture g = new EngineFixture();
        g.remember("c", "Gamma", MemoryType.FACT, List.of("z"));
        List<ExportRecord> file = new ArrayList<>(old);
        file.addAll(export(g));

        ImportResult first = f.engine.importAll(ImportCommand.of(file));
        List<ExportRecord> after = export(f);
        ImportResult second = f.engine.importAll(ImportCommand.of(file));

        assertEquals(java.util.Map.of("a", ImportOutcome.KEPT_NEWER, "b", ImportOutcome.UNCHANGED, "c", ImportOutcome.CREATED),
                byKey(first));
        assertEquals(0, first.edgesAdded(), "the b -> a edge exists already");
        assertEquals(java.util.Map.of("a", ImportOutcome.KEPT_NEWER, "b", ImportOutcome.UNCHANGED, "c", ImportOutcome.UNCHANGED),
                byKey(second));
        assertEquals(0, second.versionsAdded());
        assertEquals(after, export(f));
        assertEquals(1, f.store.edgeCount(null));
    }

    @Test
    void conflictsAreListedByADryRunAndRefuseTheImport() {
        EngineFixture source = new EngineFixture();
        source.remember("same", "From the source", MemoryType.FACT, List.of("x"));
        source.remember("mine", "Also from the source", MemoryType.FACT, List.of("x"));
        EngineFixture target = new EngineFixture();
        target.remember("same", "Already here", MemoryType.FACT, List.of("x"));
        List<ExportRecord> before = export(target);

        ImportResult dry = target.engine.importAll(new ImportCommand(export(source), ImportPolicy.KEEP_NEWER, true));
        assertEquals(java.util.Map.of("same", ImportOutcome.CONFLICT, "mine", ImportOutcome.CREATED), byKey(dry));
        String detail = dry.lines().stream().filter(l -> l.key().equals("same")).findFirst().orElseThrow().detail();
        assertTrue(detail.startsWith("key 'same' in zone 'default' belongs to "), detail);
        var e = assertThrows(ConflictException.class,
                () -> target.engine.importAll(new ImportCommand(export(source), ImportPolicy.REPLACE, false)));
        assertTrue(e.getMessage().contains("nothing was imported"), e.getMessage());
        assertEquals(before, export(target), "not even the record without a conflict");
    }

    @Test
    void aDisplayNameHeldByAnotherMemoryIsAConflictAndLabelledEdgesImportOnce() {
        EngineFixture source = new EngineFixture();
        source.remember("john", "A person", MemoryType.ENTITY, List.of("x"));
        source.remember("acme", "A company", MemoryType.ENTITY, List.of("x"));
        Memory john = memory(source, "john");
        source.store.write(tx -> {
            tx.update(john.toBuilder().name("John Smith").entityType("Person").build());
            tx.addEdge(new Edge(john.id(), memory(source, "acme").id(), EdgeType.RELATED, "works_at", source.clock.instant()));
            tx.addEdge(new Edge(john.id(), memory(source, "acme").id(), EdgeType.RELATED, "founded", source.clock.instant()));
            return null;
        });
        EngineFixture target = new EngineFixture();
        target.engine.importAll(new ImportCommand(export(source), null, false));
        assertEquals("Person", target.store.getByName("default", "John Smith").orElseThrow().entityType());
        assertEquals(2, target.store.edgeCount(null), "both labels between the same pair");
        target.engine.importAll(new ImportCommand(export(source), null, false));
        assertEquals(2, target.store.edgeCount(null), "a second import adds no edge");

        EngineFixture other = new EngineFixture();
        other.remember("johnny", "Someone else", MemoryType.ENTITY, List.of("x"));
        Memory johnny = memory(other, "johnny");
        other.store.write(tx -> {
            tx.update(johnny.toBuilder().name("John Smith").build());
            return null;
        });
        ImportResult dry = other.engine.importAll(new ImportCommand(export(source), null, true));
        String detail = dry.lines().stream().filter(l -> l.key().equals("john")).findFirst().orElseThrow().detail();
        assertTrue(detail.startsWith("name 'John Smith' in zone 'default' belongs to " + johnny.id()), detail);
        assertThrows(ConflictException.class, () -> other.engine.importAll(new ImportCommand(export(source), null, false)));
    }

    @Test
    void anIdTwiceInTheFileIsAConflict() {
        EngineFixture source = new EngineFixture();
        source.remember("a", "Alpha", MemoryType.FACT, List.of("x"));
        List<ExportRecord> twice = new ArrayList<>(export(source));
        twice.add(twice.get(0));
        ImportResult dry = new EngineFixture().engine.importAll(new ImportCommand(twice, null, true));
        assertEquals(List.of(ImportOutcome.CREATED, ImportOutcome.CONFLICT), dry.lines().stream().map(ImportResult.Line::outcome).toList());
        assertTrue(dry.lines().get(1).detail().contains("appears twice in the file"), dry.lines().get(1).detail());
    }

    /**
     * Random divergent histories of the same memories in two stores, then each imported into the other
     * without --replace: every content either store held (as the memory or as a version) is still in
     * the target, and the newer state of each memory is its current content.
     */
    @Test
    void withoutReplaceNothingIsEverLost() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            EngineFixture a = new EngineFixture();
            for (int i = 0; i < 4; i++) a.remember("k" + i, "memory " + i + " original", MemoryType.FACT, List.of("t"));
            EngineFixture b = new EngineFixture();
            b.engine.importAll(ImportCommand.of(export(a)));
            for (int step = 0; step < 12; step++) {
                EngineFixture side = random.nextBoolean() ? a : b;
                side.clock.advance(Duration.ofSeconds(1 + random.nextInt(120)));
                String key = "k" + random.nextInt(4);
                side.engine.amend(new AmendCommand(key, null, "memory " + key + " edit " + round + "." + step
                        + (side == a ? " in a" : " in b"), null, null));
            }
            Set<String> held = contents(b);
            List<ExportRecord> file = export(a);
            Set<String> expected = new HashSet<>(held);
            expected.addAll(contents(a));
            b.engine.importAll(ImportCommand.of(file));
            String at = "round " + round + "; reproduce with -Dengram.seed=" + seed;
            assertEquals(expected, contents(b), at);
            for (ExportRecord r : file) {
                Memory mine = b.store.get(r.memory().id()).orElseThrow();
                Memory theirs = r.memory();
                if (theirs.updatedAt().isAfter(mine.updatedAt())) throw new AssertionError("older state kept: " + at);
            }
        }
    }

    private static java.util.Map<String, ImportOutcome> byKey(ImportResult r) {
        return r.lines().stream().collect(java.util.stream.Collectors.toMap(ImportResult.Line::key, ImportResult.Line::outcome));
    }

    private static Set<String> contents(EngineFixture f) {
        Set<String> out = new HashSet<>();
        f.store.forEach(null, m -> {
            out.add(m.content());
            f.store.versions(m.id()).forEach(v -> out.add(v.content()));
        });
        return out;
    }

    @Test
    void aRecordWhoseIdBelongsToAnotherZonesMemoryIsAConflictAndThatMemoryStays() {
        EngineFixture f = new EngineFixture();
        RememberResult a = f.engine.remember(RememberCommand.builder("Zone a's own note").key("note").zone("a").build());
        Memory theirs = f.store.getByKey("a", "note").orElseThrow();
        f.clock.advance(Duration.ofMinutes(5));
        Memory intruder = theirs.toBuilder().zone("b").key("other").content("Another project's entry with the same id")
                .updatedAt(f.clock.instant()).build();
        List<ExportRecord> file = List.of(new ExportRecord(intruder, List.of(), List.of()));
        ImportResult dry = f.engine.importAll(new ImportCommand(file, ImportPolicy.KEEP_NEWER, true));
        assertEquals(1, dry.count(ImportOutcome.CONFLICT), dry.toString());
        assertTrue(dry.lines().get(0).detail().contains("belongs to a memory of zone 'a'"), dry.lines().get(0).detail());
        ConflictException refused = assertThrows(ConflictException.class, () -> f.engine.importAll(ImportCommand.of(file)));
        assertTrue(refused.getMessage().contains("nothing was imported"), refused.getMessage());
        assertEquals(theirs, f.store.getByKey("a", "note").orElseThrow(), "zone a's memory is neither moved nor replaced");
        assertTrue(f.store.getByKey("b", "other").isEmpty());
        assertEquals(a.memory().id(), theirs.id());
    }
}
