package dev.engram.mcp.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryType;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypeAliasesTest {
    @Test
    void toonMemorysWordsMapToTheEnginesTypes() {
        assertEquals(Map.of("bug", MemoryType.ERROR, "knowledge", MemoryType.FACT, "note", MemoryType.FACT,
                "observation", MemoryType.FACT, "howto", MemoryType.PROCEDURE, "rule", MemoryType.WARNING,
                "convention", MemoryType.PATTERN), TypeAliases.TOON_MEMORY.aliases());
        TypeAliases.TOON_MEMORY.aliases().forEach((word, type) ->
                assertEquals(type, TypeAliases.TOON_MEMORY.parse("type", word)));
    }

    @Test
    void wireNamesAlwaysParseAndAnythingElseIsRefusedAsTheModelRefusesIt() {
        for (MemoryType t : MemoryType.values()) {
            assertEquals(t, TypeAliases.TOON_MEMORY.parse("type", t.wireName()));
            assertEquals(t, TypeAliases.NONE.parse("type", t.wireName()));
        }
        for (String bad : new String[] {"thought", "Bug", " bug", "Error"}) {
            String expected = assertThrows(InvalidArgumentException.class, () -> MemoryType.parse("types", bad)).getMessage();
            assertEquals(expected, assertThrows(InvalidArgumentException.class,
                    () -> TypeAliases.TOON_MEMORY.parse("types", bad)).getMessage());
        }
        assertThrows(InvalidArgumentException.class, () -> TypeAliases.NONE.parse("type", "bug"));
    }

    @Test
    void anAliasMayNotRedefineAWireName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TypeAliases(Map.of("fact", MemoryType.ERROR)));
        assertEquals("'fact' is a wire name, not an alias", e.getMessage());
    }
}
