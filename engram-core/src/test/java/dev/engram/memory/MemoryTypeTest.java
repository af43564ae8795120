package dev.engram.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.error.InvalidArgumentException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 15: the core model knows only its wire names; other words for a type are a profile's vocabulary. */
class MemoryTypeTest {
    @Test
    void everyWireNameParsesToItsType() {
        for (MemoryType t : MemoryType.values()) {
            assertEquals(t, MemoryType.parse("type", t.wireName()));
        }
    }

    @Test
    void theProfileAliasesAreNotTheModels() {
        for (String alias : List.of("bug", "knowledge", "note", "observation", "howto", "rule", "convention")) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> MemoryType.parse("type", alias));
            assertEquals("type '" + alias + "' is not a known type; send one of decision, pattern, error, warning,"
                    + " preference, procedure, fact, relation, entity", e.getMessage());
        }
    }
}
