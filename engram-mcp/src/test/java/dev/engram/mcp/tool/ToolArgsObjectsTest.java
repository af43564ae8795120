package dev.engram.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.error.InvalidArgumentException;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolArgsObjectsTest {
    private static final Tool TOOL = Tool.builder("demo", JsonSchema.input()
            .property("params", new java.util.LinkedHashMap<>(Map.of("type", "object")))
            .property("items", new java.util.LinkedHashMap<>(Map.of("type", "array")))
            .build()).build();

    @Test
    void objectsAndArraysOfObjectsAreReadAsMaps() {
        ToolArgs a = ToolArgs.of(TOOL, Map.of("params", Map.of("tool", "read"), "items", List.of(Map.of("k", 1))));
        assertEquals(Map.of("tool", "read"), a.object("params"));
        assertEquals(List.of(Map.of("k", 1)), a.objects("items"));
        ToolArgs none = ToolArgs.of(TOOL, Map.of());
        assertEquals(Map.of(), none.object("params"));
        assertNull(none.objects("items"));
    }

    @Test
    void wrongShapesNameTheFieldAndTheItem() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> ToolArgs.of(TOOL, Map.of("items", List.of(Map.of(), "x"))).objects("items"));
        assertEquals("items must be an array of objects, but item 1 is string \"x\" (e.g. \"items\": [\"a\", \"b\"])", e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> ToolArgs.of(TOOL, Map.of("params", "x")).object("params"));
    }
}
