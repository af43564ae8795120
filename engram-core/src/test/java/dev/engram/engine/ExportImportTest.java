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
}
