package dev.engram.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.RecallMode;
import dev.engram.error.InvalidArgumentException;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolArgsTest {
    static final Tool TOOL = Tool.builder("demo", JsonSchema.input()
            .string("query", "What you need, in a few words", "redis timeout")
            .integer("limit", "Max results", 1, 100, 5)
            .bool("explain", "Explain")
            .strings("tags", "Tags", List.of("api", "db"))
            .choice("mode", "Mode", List.of("ranked", "index", "ids"))
            .string("zone", "Zone", null)
            .required("query").build()).description("d").build();

    private static ToolArgs args(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return ToolArgs.of(TOOL, m);
    }

    private static String message(Runnable r) {
        return assertThrows(InvalidArgumentException.class, r::run).getMessage();
    }

    @Test
    void missingRequiredTextNamesFieldDescriptionAndExample() {
        assertEquals("query is required: What you need, in a few words (e.g. \"query\": \"redis timeout\")",
                message(() -> args().text("query")));
        assertEquals("query is required: What you need, in a few words (e.g. \"query\": \"redis timeout\")",
                message(() -> args("query", "  ").text("query")));
    }

    @Test
    void textOfWrongTypeNamesExpectedTypeAndExample() {
        assertEquals("query must be a string, got number 42 (e.g. \"query\": \"redis timeout\")",
                message(() -> args("query", 42).text("query")));
        assertEquals("query must be a string, got an array (e.g. \"query\": \"redis timeout\")",
                message(() -> args("query", List.of("a")).textOr("query")));
        assertEquals("zone must be a string, got boolean true (e.g. \"zone\": \"text\")",
                message(() -> args("zone", true).textOr("zone")));
    }

    @Test
    void integerOfWrongTypeOrOutOfRange() {
        assertEquals("limit must be an integer, got string \"ten\" (e.g. \"limit\": 5)",
                message(() -> args("limit", "ten").intOr("limit", 1, 100)));
        assertEquals("limit must be an integer, got number 2.5 (e.g. \"limit\": 5)",
                message(() -> args("limit", 2.5).intOr("limit", 1, 100)));
        assertEquals("limit must be an integer, got an object (e.g. \"limit\": 5)",
                message(() -> args("limit", Map.of()).intOr("limit", 1, 100)));
        assertEquals("limit must be 1..100, got 500", message(() -> args("limit", 500).intOr("limit", 1, 100)));
        // 2^64 + 5: longValue() would wrap it to 5 and the call would silently ask for 5 results
        assertEquals("limit must be 1..100, got 18446744073709551621", message(() -> args("limit",
                new java.math.BigInteger("18446744073709551621")).intOr("limit", 1, 100)));
        assertEquals("limit must be 1..100, got 1.5E300", message(() -> args("limit", 1.5e300).intOr("limit", 1, 100)));
    }

    @Test
    void integerAcceptsWholeNumbersAndNumericStrings() {
        assertEquals(7, args("limit", 7).intOr("limit", 1, 100));
        assertEquals(7, args("limit", 7.0).intOr("limit", 1, 100));
        assertEquals(7, args("limit", 7L).intOr("limit", 1, 100));
        assertEquals(7, args("limit", " 7 ").intOr("limit", 1, 100));
        assertNull(args().intOr("limit", 1, 100));
        assertEquals(3, args().intOr("limit", 3, 1, 100));
    }

    @Test
    void booleanOfWrongType() {
        assertEquals("explain must be a boolean, got string \"yes\" (e.g. \"explain\": true)",
                message(() -> args("explain", "yes").bool("explain")));
        assertEquals("explain must be a boolean, got number 1 (e.g. \"explain\": true)",
                message(() -> args("explain", 1).bool("explain")));
        assertTrue(args("explain", "TRUE").bool("explain"));
        assertFalse(args().bool("explain"));
    }

    @Test
    void listAcceptsArraysAndSeparatedStrings() {
        assertEquals(List.of("api", "db"), args("tags", List.of("api", " db ")).list("tags"));
        assertEquals(List.of("api", "db", "cache"), args("tags", "api, db;cache").list("tags"));
        assertEquals(List.of(), args("tags", "").list("tags"));
        assertNull(args().list("tags"));
    }

    @Test
    void listOfWrongTypeNamesTheItem() {
        assertEquals("tags must be an array of strings, got number 3 (e.g. \"tags\": [\"api\", \"db\"])",
                message(() -> args("tags", 3).list("tags")));
        assertEquals("tags must be an array of strings, but item 1 is number 2 (e.g. \"tags\": [\"api\", \"db\"])",
                message(() -> args("tags", List.of("a", 2)).list("tags")));
    }

    @Test
    void choiceUsesTheModelParser() {
        assertEquals(RecallMode.INDEX, args("mode", "index").choice("mode", RecallMode::parse));
        assertNull(args().choice("mode", RecallMode::parse));
        // one rule for every enum (issue 13): the exact wire name, no case folding or trimming
        assertEquals("mode 'Index' is not a mode; send ranked, hybrid (all search layers), index or ids",
                message(() -> args("mode", "Index").choice("mode", RecallMode::parse)));
        assertEquals("mode ' index ' is not a mode; send ranked, hybrid (all search layers), index or ids",
                message(() -> args("mode", " index ").choice("mode", RecallMode::parse)));
        assertEquals("mode 'fast' is not a mode; send ranked, hybrid (all search layers), index or ids",
                message(() -> args("mode", "fast").choice("mode", RecallMode::parse)));
        assertEquals("mode must be a string, got number 1 (e.g. \"mode\": \"ranked\")",
                message(() -> args("mode", 1).choice("mode", RecallMode::parse)));
    }

    @Test
    void nullCountsAsAbsent() {
        assertNull(args("zone", null).textOr("zone"));
        assertNull(args("limit", null).intOr("limit", 1, 100));
    }

    @Test
    void unknownArgumentListsAcceptedNamesAndSuggestsTheClosest() {
        assertEquals("qeury is not an argument of demo (did you mean 'query'?); it accepts: explain, limit, mode,"
                + " query, tags, zone", message(() -> args("qeury", "x")));
        assertEquals("colour is not an argument of demo; it accepts: explain, limit, mode, query, tags, zone",
                message(() -> args("colour", "x")));
    }

    @Test
    void readingAnUndeclaredNameIsOurBugNotTheAgents() {
        assertThrows(IllegalStateException.class, () -> args().textOr("nope"));
    }
}
