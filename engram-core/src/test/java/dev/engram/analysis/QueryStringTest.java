package dev.engram.analysis;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.analysis.QueryNode.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * brain-tools' boolean-search and fuzzy-search tests (tests/boolean-search.test.ts,
 * tests/fuzzy-search.test.ts) as filters over the same kind of entities, plus the queries agents
 * send that must never fail.
 */
class QueryStringTest {
    /** name -> what the filter sees (name, type, observations). */
    private static final Map<String, String> FRUIT = new LinkedHashMap<>();
    private static final Map<String, String> SKILLS = new LinkedHashMap<>();

    static {
        FRUIT.put("BooleanTest1", "BooleanTest1 test This entity contains apple and banana");
        FRUIT.put("BooleanTest2", "BooleanTest2 test This entity contains an apple only");
        FRUIT.put("BooleanTest3", "BooleanTest3 test This entity contains a banana only");
        FRUIT.put("BooleanTest4", "BooleanTest4 test This entity contains neither fruit");
        SKILLS.put("Programming", "Programming skill Software development with various programming languages");
        SKILLS.put("JavaScript", "JavaScript language A programming language commonly used for web development");
        SKILLS.put("Python", "Python language A programming language known for its readability and versatility");
        SKILLS.put("Database", "Database technology Structured collection of data for easy access and management");
        SKILLS.put("Architecture", "Architecture concept The structure and organization of software components");
    }

    private static List<String> matching(String query, Map<String, String> docs) {
        QueryString q = QueryString.parse(query);
        return docs.entrySet().stream().filter(e -> q.matches(e.getValue())).map(Map.Entry::getKey).toList();
    }

    @Test
    void andRequiresEveryTerm() {
        assertEquals(List.of("BooleanTest1"), matching("apple AND banana", FRUIT));
        assertEquals(List.of("BooleanTest1"), matching("apple && banana", FRUIT));
        assertEquals(List.of("BooleanTest1"), matching("+apple +banana", FRUIT));
    }

    @Test
    void orAcceptsAnyTerm() {
        assertEquals(List.of("BooleanTest1", "BooleanTest2", "BooleanTest3"), matching("apple OR banana", FRUIT));
        assertEquals(List.of("BooleanTest1", "BooleanTest2", "BooleanTest3"), matching("apple || banana", FRUIT));
    }

    @Test
    void notExcludes() {
        assertEquals(List.of("BooleanTest2"), matching("apple NOT banana", FRUIT));
        assertEquals(List.of("BooleanTest2"), matching("apple -banana", FRUIT));
        assertEquals(List.of("BooleanTest2"), matching("apple AND !banana", FRUIT));
    }

    @Test
    void groupsNest() {
        assertEquals(List.of("BooleanTest2", "BooleanTest3"),
                matching("(apple OR banana) AND NOT (apple AND banana)", FRUIT));
    }

    @Test
    void fuzzyTermsMatchNamesAndObservationsWithinTheirEdits() {
        assertTrue(matching("Programing~1", SKILLS).contains("Programming"));
        assertTrue(matching("readabilty~1", SKILLS).contains("Python"));
        List<String> language = matching("languag~2", SKILLS);
        assertTrue(language.containsAll(List.of("JavaScript", "Python")), language.toString());
        assertFalse(matching("pythn~0", SKILLS).contains("Python"), "~0 is exact");
        assertTrue(matching("pythn~", SKILLS).contains("Python"), "AUTO allows one edit at 5 letters");
    }

    @Test
    void proximityPhrasesAllowTheirSlop() {
        List<String> near = matching("\"programming language\"~2", SKILLS);
        assertTrue(near.containsAll(List.of("JavaScript", "Python")), near.toString());
        assertFalse(matching("\"software components\"~0", Map.of("x", "software and its components")).contains("x"));
        assertTrue(matching("\"software components\"", Map.of("x", "software and its components")).contains("x"),
                "brain-tools' phrase_slop is 2");
        assertFalse(matching("\"components software\"", Map.of("x", "software components")).contains("x"), "order counts");
    }

    @Test
    void fuzzyCombinesWithBooleans() {
        List<String> hits = matching("programing~1 AND NOT javascript", SKILLS);
        assertTrue(hits.containsAll(List.of("Programming", "Python")), hits.toString());
        assertFalse(hits.contains("JavaScript"));
    }

    @Test
    void wildcardsMatchWordShapes() {
        Map<String, String> docs = Map.of("iaptic-server", "iaptic-server Project uses TypeScript", "other", "other thing");
        assertEquals(List.of("iaptic-server"), matching("iapt*", docs));
        assertEquals(List.of("iaptic-server"), matching("*script", docs));
        assertEquals(List.of("iaptic-server"), matching("typ?script", docs));
        QueryString prefix = QueryString.parse("iapt*");
        assertEquals(Kind.PREFIX, ((QueryNode.Term) prefix.expression()).kind());
        assertTrue(prefix.hasPatterns());
    }

    @Test
    void plainWordsRankWithoutFiltering() {
        QueryString q = QueryString.parse("what did we decide about the auth service?");
        assertFalse(q.filters(), "a question is ranking only; its '?' is punctuation");
        assertTrue(q.matches("nothing in common"));
        assertEquals("what did we decide about the auth service", q.rankingText());
    }

    @Test
    void rankingTextHoldsThePositiveWordsWithoutMarkers() {
        QueryString q = QueryString.parse("(TypeScript^2 OR \"build system\") AND NOT flaky iapt* serv~1 name:Kafka");
        assertEquals("typescript build system iapt serv kafka", q.rankingText());
        assertEquals("typescript build system iapt iaptic serv service kafka",
                q.rankingText(t -> t.kind() == Kind.PREFIX ? List.of("iaptic") : List.of("service")),
                "each pattern's expansions follow it");
        assertEquals(2, q.patternTerms().size());
    }

    @Test
    void namesWithPunctuationAreMatchedAsTheirWords() {
        Map<String, String> docs = Map.of("a", "iaptic-server: uses TypeScript", "b", "iaptic client");
        assertEquals(List.of("a"), matching("+iaptic-server", docs));
        assertEquals(List.of("a"), matching("\"iaptic server\" AND typescript", docs));
        assertEquals(List.of("a"), matching("Café AND typescript", Map.of("a", "cafe uses typescript", "b", "café")),
                "accents fold on both sides");
        assertEquals(List.of("a"), matching("+한국어", Map.of("a", "한국어 메모", "b", "English")));
    }

    @Test
    void malformedQueriesNeverFail() {
        for (String q : List.of("", "   ", "\"unclosed phrase", "(a OR b", "a OR b)", "AND", "OR OR", "NOT", "-", "+",
                "a AND", "a^", "a~x", "\"\"", "()", "**", "?", "\\", "a\\", "[1 TO 5]", "/regex.*/", "name:", ":x",
                "field:(a OR b)", "a &&& b", "!!!", "~~~", "^^^", "\"a b\"~", "\"a b\"~999999")) {
            assertDoesNotThrow(() -> {
                QueryString parsed = QueryString.parse(q);
                parsed.matches("a b c");
                parsed.rankingText();
            }, q);
        }
        // thousands of '(' or prefixes once exhausted the stack of the server thread (and hung the session)
        for (String q : List.of("(".repeat(8000) + "a", "!".repeat(20000) + "a", "-".repeat(20000) + "a",
                "NOT ".repeat(5000) + "a", "(a OR ".repeat(3000) + "b", "((((((((x))))))))".repeat(500))) {
            assertDoesNotThrow(() -> QueryString.parse(q).matches("a b x"), q.substring(0, 12));
        }
        assertTrue(QueryString.parse("(".repeat(8000) + "a").matches("a"), "the words behind the parentheses still count");
        assertFalse(QueryString.parse("!!a").matches("b"), "two negations cancel: !!a means a");
        assertTrue(QueryString.parse("!!!a").matches("b"), "three negate");
        assertEquals("a b", QueryString.parse("(a OR b").rankingText());
        assertTrue(QueryString.parse("\"unclosed phrase").matches("an unclosed phrase here"));
        assertTrue(QueryString.parse("NOT").matches("anything"), "a dangling operator is dropped");
    }

    @Test
    void lowerCaseOperatorsAreWords() {
        QueryString q = QueryString.parse("salt and pepper");
        assertFalse(q.filters());
        assertEquals("salt and pepper", q.rankingText());
    }

    @Test
    void pluralsMatchEitherWay() {
        assertTrue(QueryString.parse("+service").matches("two services"));
        assertTrue(QueryString.parse("+services").matches("one service"));
        assertTrue(QueryString.distanceAtMost("teh", "the", 1), "a transposition is one edit");
    }

    /** Accents are dropped by decomposing; Hangul, which decomposes into jamo, must come back whole to match the index. */
    @Test
    void hangulIsRankedAndComparedAsWritten() {
        assertEquals("메모리", QueryString.parse("메모리").rankingText());
        assertEquals(List.of("한국어", "메모리"), QueryString.fold("한국어 메모리"));
        assertTrue(QueryString.parse("\"한국어 메모리\" AND korean").matches("Korean 한국어 메모리 and english words"));
        assertEquals(List.of("cafe", "creme"), QueryString.fold("Café crème"));
    }

    /** Queries of operators or punctuation only hold nothing to search for (Elasticsearch's analyser finds no token). */
    @Test
    void aQueryOfOperatorsOrPunctuationOnlyIsEmpty() {
        for (String q : List.of("", "   ", "%", "_", "?", "#", "-", "...", "{}", "*:*", "*", "AND", "(((", "\"", "\"\"", "NOT")) {
            assertTrue(QueryString.parse(q).isEmpty(), q);
        }
        for (String q : List.of("a", "NOT apple", "-apple", "iapt*", "\"two words\"", "typscript~", "name:foo")) {
            assertFalse(QueryString.parse(q).isEmpty(), q);
        }
    }
}
