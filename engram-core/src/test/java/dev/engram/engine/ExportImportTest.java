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
