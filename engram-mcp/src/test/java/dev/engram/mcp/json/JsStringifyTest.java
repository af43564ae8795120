package dev.engram.mcp.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expected texts were printed by Node 20's JSON.stringify for the same value. */
class JsStringifyTest {
    private static Map<String, Object> sample() {
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("name", "김철수 \"Q\" \\ \u0001\u001f\t\n/<>\u2028");
        first.put("entityType", "사람");
        first.put("observations", List.of());
        Map<String, Object> second = new LinkedHashMap<>();
        second.put("name", "x");
        second.put("entityType", "y");
        second.put("observations", List.of("a", "b\ud800"));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("entities", List.of(first, second));
        v.put("relations", List.of());
        v.put("empty", Map.of());
        return v;
    }

    @Test
    void prettyIsJsonStringifyWithTwoSpaces() {
        assertEquals("{\n  \"entities\": [\n    {\n      \"name\": \"김철수 \\\"Q\\\" \\\\ \\u0001\\u001f\\t\\n/<>\u2028\",\n"
                + "      \"entityType\": \"사람\",\n      \"observations\": []\n    },\n    {\n      \"name\": \"x\",\n"
                + "      \"entityType\": \"y\",\n      \"observations\": [\n        \"a\",\n        \"b\\ud800\"\n      ]\n"
                + "    }\n  ],\n  \"relations\": [],\n  \"empty\": {}\n}", JsStringify.pretty(sample()));
    }

    @Test
    void compactIsJsonStringify() {
        assertEquals("{\"entities\":[{\"name\":\"김철수 \\\"Q\\\" \\\\ \\u0001\\u001f\\t\\n/<>\u2028\",\"entityType\":\"사람\","
                + "\"observations\":[]},{\"name\":\"x\",\"entityType\":\"y\",\"observations\":[\"a\",\"b\\ud800\"]}],"
                + "\"relations\":[],\"empty\":{}}", JsStringify.compact(sample()));
    }

    @Test
    void emptyTopLevelArrayAndSurrogatePairs() {
        assertEquals("[]", JsStringify.pretty(List.of()));
        assertEquals("[\n  \"😀\",\n  true\n]", JsStringify.pretty(List.of("😀", true)));
    }
    @Test
    void numbersAsJavaScriptPrintsThem() {
        assertEquals("10", JsStringify.number(10.0));
        assertEquals("0.1", JsStringify.number(0.1));
        assertEquals("0.01", JsStringify.number(0.01));
        assertEquals("25", JsStringify.number(25));
        assertEquals("0.0001", JsStringify.number(0.0001));
        assertEquals("1e-7", JsStringify.number(1e-7));
        assertEquals("1.5", JsStringify.number(1.5));
        assertEquals("null", JsStringify.number(Double.NaN));
    }

    @Test
    void layoutAndEscapesOfABrainToolsReply() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", List.of());
        m.put("b", Map.of());
        m.put("c", List.of(1, "x\n\"y\"\u0001"));
        m.put("d", null);
        m.put("e", "한국어 😀");
        assertEquals("{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    \"x\\n\\\"y\\\"\\u0001\"\n  ],\n  \"d\": null,\n"
                + "  \"e\": \"한국어 😀\"\n}", JsStringify.pretty(m));
        assertEquals("\"\\ud800\"", JsStringify.pretty("\ud800"), "a lone surrogate is escaped, as in ES2019");
    }
}
