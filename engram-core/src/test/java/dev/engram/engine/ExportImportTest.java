package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExportImportTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    @Test
    void exportThenImportIntoAnEmptyStoreIsLossless() {
        EngineFixture source = new EngineFixture();
        source.remember("a", "Alpha fact", MemoryType.FACT, List.of("x"));
        source.remember("b", "Beta decision", MemoryType.DECISION, List.of("y"));
        source.engine.link(new LinkCommand("b", "a", EdgeType.DEPENDS_ON, null, false));
        source.engine.amend(new AmendCommand("a", null, "Alpha fact, revised", null, null));
        source.engine.pin(new PinCommand("b", null, 2));
        List<ExportRecord> exported = new ArrayList<>();
        source.engine.export(null, exported::add);

        EngineFixture target = new EngineFixture();
        List<ExportRecord> reversed = new ArrayList<>(exported);
        java.util.Collections.reverse(reversed); // edges may point at records later in the file
        target.engine.importAll(ImportCommand.of(reversed));
        List<ExportRecord> again = new ArrayList<>();
        target.engine.export(null, again::add);
        assertEquals(exported, again);
        assertEquals("b", target.engine.recall(EngineFixture.query("beta decision"), COST).results().get(0).memory().key());
    }

    @Test
    void notesAndTheWordsOfHashedTagsTravelWithTheMemory() {
        EngineFixture source = new EngineFixture();
        String caseTag = TagWords.tagFor("case:", "배포-장애"), phaseTag = TagWords.tagFor("phase:", "점검");
        assertTrue(TagWords.hashed(caseTag) && TagWords.hashed(phaseTag), caseTag + " " + phaseTag);
        source.engine.remember(RememberCommand.builder("배포가 JDK 누락으로 실패한다").key("deploy-jdk")
                .tags(List.of("deploy", caseTag, phaseTag))
                .notes(java.util.Map.of("goal", "배포를 복구한다", "outcome", "temurin-17 설치 후 통과")).build());
        source.engine.setMark(TagWords.MARK + caseTag, "배포-장애");
        source.engine.setMark(TagWords.MARK + phaseTag, "점검");
        List<ExportRecord> exported = new ArrayList<>();
        source.engine.export(null, exported::add);
        ExportRecord r = exported.get(0);
        assertEquals(java.util.Map.of("goal", "배포를 복구한다", "outcome", "temurin-17 설치 후 통과"), r.notes());
        assertEquals(java.util.Map.of(caseTag, "배포-장애", phaseTag, "점검"), r.tagWords());
        List<ExportRecord> scanned = new ArrayList<>();
        source.engine.records(null, scanned::add);
        assertTrue(scanned.get(0).notes().isEmpty() && scanned.get(0).tagWords().isEmpty(), "a scan reads neither");

        EngineFixture dry = new EngineFixture();
        dry.engine.importAll(new ImportCommand(exported, ImportPolicy.KEEP_NEWER, true));
        assertTrue(dry.store.mark(TagWords.MARK + caseTag).isEmpty() && dry.engine.notes(null, r.memory().id()).isEmpty(),
                "a dry run writes no note and no word");

        EngineFixture target = new EngineFixture();
        target.engine.importAll(ImportCommand.of(exported));
        assertEquals(r.notes(), target.engine.notes("default", r.memory().id()));
        assertEquals(java.util.Optional.of("배포-장애"), target.store.mark(TagWords.MARK + caseTag));
        List<ExportRecord> again = new ArrayList<>();
        target.engine.export(null, again::add);
        assertEquals(exported, again);
    }

    @Test
    void aStoredMemoryKeepsItsNotesWhenItStaysAndTakesTheFilesWhenTheFileWins() {
        EngineFixture source = new EngineFixture();
        source.engine.remember(RememberCommand.builder("The API answers in JSON").key("api")
                .notes(java.util.Map.of("goal", "from the file", "outcome", "file outcome")).build());
        List<ExportRecord> older = new ArrayList<>();
        source.engine.export(null, older::add);

        EngineFixture target = new EngineFixture();
        target.engine.importAll(ImportCommand.of(older));
        target.clock.advance(java.time.Duration.ofMinutes(1));
        target.engine.remember(RememberCommand.builder("The API answers in JSON and CSV").key("api").replace(true)
                .notes(java.util.Map.of("goal", "stored goal")).build());
        target.engine.importAll(ImportCommand.of(older));
        String id = older.get(0).memory().id();
        assertEquals("The API answers in JSON and CSV", target.store.get(id).orElseThrow().content(), "the newer stored state stays");
        assertEquals(java.util.Map.of("goal", "stored goal", "outcome", "file outcome"), target.engine.notes("default", id),
                "its notes stay; the file only adds the one it lacked");

        target.engine.importAll(new ImportCommand(older, ImportPolicy.REPLACE, false));
        assertEquals(java.util.Map.of("goal", "from the file", "outcome", "file outcome"), target.engine.notes("default", id),
                "the file's state wins, and its notes with it");
    }

    @Test
    void aTagWordMustBeTheWordOfOneOfTheMemorysTags() {
        EngineFixture f = new EngineFixture();
        String tag = TagWords.tagFor("topic:", "레디스");
        var m = f.engine.remember(RememberCommand.builder("Redis NOAUTH").tags(List.of(tag)).build()).memory();
        var wrong = assertThrows(dev.engram.error.InvalidArgumentException.class,
                () -> new ExportRecord(m, List.of(), List.of(), java.util.Map.of(), java.util.Map.of(tag, "데이터베이스")));
        assertTrue(wrong.getMessage().contains("'데이터베이스' is not the word of tag '" + tag + "'"), wrong.getMessage());
        var stranger = assertThrows(dev.engram.error.InvalidArgumentException.class, () -> new ExportRecord(m, List.of(), List.of(),
                java.util.Map.of(), java.util.Map.of(TagWords.tagFor("topic:", "캐시"), "캐시")));
        assertTrue(stranger.getMessage().contains("is not a tag of this memory"), stranger.getMessage());
        var note = assertThrows(dev.engram.error.InvalidArgumentException.class, () -> new ExportRecord(m, List.of(), List.of(),
                java.util.Map.of("Goal!", "x"), java.util.Map.of()));
        assertTrue(note.getMessage().contains("is not a note name"), note.getMessage());
        assertEquals(java.util.Map.of(tag, "레디스"), new ExportRecord(m, List.of(), List.of(), java.util.Map.of(),
                java.util.Map.of(tag, "레디스")).tagWords());
    }

    @Test
    void importRefusesAKeyOwnedByAnotherMemory() {
        EngineFixture source = new EngineFixture();
        source.remember("same", "From the source", MemoryType.FACT, List.of("x"));
        List<ExportRecord> exported = new ArrayList<>();
        source.engine.export(null, exported::add);
        EngineFixture target = new EngineFixture();
        target.remember("same", "Already here", MemoryType.FACT, List.of("x"));
        var e = assertThrows(ConflictException.class, () -> target.engine.importAll(ImportCommand.of(exported)));
        assertTrue(e.getMessage().startsWith("import: key 'same' in zone 'default' belongs to"), e.getMessage());
        assertEquals(1, target.store.count());
    }

    @Test
    void recordReadsOneMemoryAsExportWritesItByIdOrKeyWithinItsZone() {
        EngineFixture f = new EngineFixture();
        f.remember("a", "Alpha fact", MemoryType.FACT, List.of("x"));
        String b = f.remember("b", "Beta decision", MemoryType.DECISION, List.of("y")).memory().id();
        f.engine.link(new LinkCommand("b", "a", EdgeType.DEPENDS_ON, null, false));
        f.engine.amend(new AmendCommand("b", null, "Beta decision, revised", null, null));
        f.engine.remember(new RememberCommand("Gamma elsewhere", "g", null, null, "other", null, null, null, null, null,
                null, false, null, null));
        List<ExportRecord> exported = new ArrayList<>();
        f.engine.export("default", exported::add);
        ExportRecord expected = exported.stream().filter(r -> r.memory().id().equals(b)).findFirst().orElseThrow();

        assertEquals(expected, f.engine.record("default", b).orElseThrow());
        assertEquals(expected, f.engine.record("default", "b").orElseThrow());
        assertEquals(1, expected.edges().size()); // the outgoing depends_on edge only
        assertEquals(1, expected.versions().size());
        // the edge's target does not list it: export keeps outgoing edges only
        assertTrue(f.engine.record("default", "a").orElseThrow().edges().isEmpty());
        String g = f.engine.record("other", "g").orElseThrow().memory().id();
        assertTrue(f.engine.record("default", g).isEmpty(), "an id of another zone is not found in this one");
        assertTrue(f.engine.record("default", "g").isEmpty());
        assertTrue(f.engine.record("default", "no-such").isEmpty());
    }
}
