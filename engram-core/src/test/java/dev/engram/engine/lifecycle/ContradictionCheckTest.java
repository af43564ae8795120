package dev.engram.engine.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContradictionCheckTest {
    private static Optional<ContradictionCheck.Finding> check(String a, String b) {
        return ContradictionCheck.compare(a, b);
    }

    @Test
    void numbersForTheSameSubjectThatDisagree() {
        var f = check("Connection pool max 20", "Connection pool max 50").orElseThrow();
        assertEquals(ContradictionCheck.Basis.VALUES, f.basis());
        assertEquals("max: 20 vs 50", f.detail());
        assertEquals("limit: 100 vs 1000", check("The API rate limit is 100 requests per minute",
                "Rate limit for the API: 1000 requests per minute").orElseThrow().detail());
    }

    @Test
    void versionsAndDates() {
        assertEquals("node: 18.2 vs 20.1", check("Requires node v18.2", "Requires node 20.1").orElseThrow().detail());
        assertEquals("deadline: 2026-12-01 vs 2026-12-15",
                check("The release deadline is 2026-12-01", "The release deadline is 2026-12-15").orElseThrow().detail());
    }

    @Test
    void negationPolarity() {
        var f = check("The api uses Redis for sessions", "The api does not use Redis for sessions").orElseThrow();
        assertEquals(ContradictionCheck.Basis.NEGATION, f.basis());
        assertTrue(check("Deploys don't run on Fridays", "Deploys run on Fridays").isPresent());
    }

    @Test
    void agreementAndUnrelatedStatementsAreUndecided() {
        assertTrue(check("Connection pool max 20", "The connection pool allows max 20").isEmpty(), "same value");
        assertTrue(check("The cache holds 20 items", "The team has 50 people").isEmpty(), "different subjects");
        assertTrue(check("The api is written in Kotlin", "The api is written in Go").isEmpty(), "needs a judge");
        assertTrue(check("Never deploy on Friday", "Write tests before the deploy").isEmpty());
        assertTrue(check("Use 2 spaces; the linter allows no tabs", "Use 2 spaces; the linter allows no tabs").isEmpty());
    }
}
