package dev.engram.mcp.profile.brain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link BrainJson} against what Node's {@code JSON.stringify(value, null, 2)} prints for the same values. */
class BrainJsonTest {
    @Test
    void numbersAsJavaScriptPrintsThem() {
        assertEquals("10", BrainJson.number(10.0));
        assertEquals("0.1", BrainJson.number(0.1));
        assertEquals("0.01", BrainJson.number(0.01));
        assertEquals("25", BrainJson.number(25));
        assertEquals("0.0001", BrainJson.number(0.0001));
        assertEquals("1e-7", BrainJson.number(1e-7));
        assertEquals("1.5", BrainJson.number(1.5));
        assertEquals("null", BrainJson.number(Double.NaN));
    }

    @Test
    void layoutAndEscapes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", List.of());
        m.put("b", Map.of());
        m.put("c", List.of(1, "x\n\"y\"\u0001"));
        m.put("d", null);
        m.put("e", "한국어 😀");
        assertEquals("{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    \"x\\n\\\"y\\\"\\u0001\"\n  ],\n  \"d\": null,\n"
                + "  \"e\": \"한국어 😀\"\n}", BrainJson.pretty(m));
        assertEquals("\"\\ud800\"", BrainJson.pretty("\ud800"), "a lone surrogate is escaped, as in ES2019");
    }
}
