package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expected texts were printed by Node 20's JSON.stringify for the same value. */
class JsJsonTest {
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
                + "    }\n  ],\n  \"relations\": [],\n  \"empty\": {}\n}", JsJson.pretty(sample()));
    }

    @Test
    void compactIsJsonStringify() {
        assertEquals("{\"entities\":[{\"name\":\"김철수 \\\"Q\\\" \\\\ \\u0001\\u001f\\t\\n/<>\u2028\",\"entityType\":\"사람\","
                + "\"observations\":[]},{\"name\":\"x\",\"entityType\":\"y\",\"observations\":[\"a\",\"b\\ud800\"]}],"
                + "\"relations\":[],\"empty\":{}}", JsJson.compact(sample()));
    }

    @Test
    void emptyTopLevelArrayAndSurrogatePairs() {
        assertEquals("[]", JsJson.pretty(List.of()));
        assertEquals("[\n  \"😀\",\n  true\n]", JsJson.pretty(List.of("😀", true)));
    }
}
