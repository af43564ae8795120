package dev.engram.engine;

import static dev.engram.engine.EngineFixture.recall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Importance;
import dev.engram.memory.MemoryType;
import dev.engram.rank.Contribution;
import dev.engram.testing.PlainCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecallTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final EngineFixture f = new EngineFixture();

    private List<String> keys(RecallResult r) {
        return r.results().stream().map(x -> x.memory().key()).toList();
    }

    @Test
    void findsByContentKeyAndTags() {
        f.remember("redis-auth", "Production cache requires a password", MemoryType.WARNING, List.of("redis"));
        f.remember("zod", "Validate requests with schemas", MemoryType.DECISION, List.of("api"));
        assertEquals(List.of("redis-auth"), keys(f.engine.recall(EngineFixture.query("password"), COST)));
        assertEquals(List.of("redis-auth"), keys(f.engine.recall(EngineFixture.query("redis"), COST)));
        assertEquals(List.of("zod"), keys(f.engine.recall(EngineFixture.query("zod"), COST)));
    }

    @Test
    void filtersByTypeTagsDatesAndPath() {
        f.engine.remember(new RememberCommand("Auth tokens expire hourly", "a1", MemoryType.FACT, List.of("auth", "api"),
                null, null, null, null, "src/auth/Token.java", null, null, false, null, null));
        f.clock.advance(Duration.ofDays(10));
        f.engine.remember(new RememberCommand("Auth uses OAuth device flow", "a2", MemoryType.DECISION, List.of("auth"),
                null, null, null, null, "docs/auth.md", null, null, false, null, null));
        assertEquals(List.of("a2"), keys(f.engine.recall(recall("auth").types(Set.of(MemoryType.DECISION)).build(), COST)));
        assertEquals(List.of("a1"), keys(f.engine.recall(recall("auth").tags(List.of("auth", "api")).build(), COST)));
        assertEquals(List.of("a2"), keys(f.engine.recall(recall("auth").from("7d").build(), COST)));
        assertEquals(List.of("a1"), keys(f.engine.recall(recall("auth").to("2026-12-01").build(), COST)));
        assertEquals(List.of("a1"), keys(f.engine.recall(recall("auth").path("src/**").build(), COST)));
        var swapped = assertThrows(InvalidArgumentException.class,
                () -> f.engine.recall(recall("auth").from("2026-12-31").to("2026-01-01").build(), COST));
        assertTrue(swapped.getMessage().startsWith("from (2026-12-31) is after to"), swapped.getMessage());
    }

    @Test
    void budgetsCapResultCountAndTokens() {
        for (int i = 0; i < 25; i++) {
            f.remember("deploy-" + i, "Deploy step " + i + " runs the release script with extra checks number " + i,
                    MemoryType.PROCEDURE, List.of("deploy"));
        }
        assertEquals(3, f.engine.recall(recall("deploy release").budget(Budget.TINY).build(), COST).results().size());
        assertEquals(10, f.engine.recall(recall("deploy release").build(), COST).results().size());
        assertEquals(20, f.engine.recall(recall("deploy release").budget(Budget.DEEP).build(), COST).results().size());
        assertEquals(25, f.engine.recall(recall("deploy release").limit(50).build(), COST).results().size());

        RecallResult capped = f.engine.recall(recall("deploy release").limit(50).budgetTokens(100).build(), COST);
        assertTrue(capped.tokens() <= 100, "tokens " + capped.tokens());
        assertTrue(capped.budgetLimited());
        assertFalse(capped.results().isEmpty());
        int sum = 0;
        for (int rank = 1; rank <= capped.results().size(); rank++) {
            sum += COST.recalled(capped.results().get(rank - 1), RecallMode.RANKED, rank);
        }
        assertEquals(sum, capped.tokens());
        assertEquals(25, capped.candidates());
        assertTrue(capped.notes().get(0).contains("budget_tokens 100"));
    }

    @Test
    void theBudgetCutsByTheCallersCostAndPassesEachResultItsPrintedRank() {
        for (int i = 0; i < 6; i++) {
            f.remember("deploy-" + i, "Deploy step " + i + " runs the release script", MemoryType.PROCEDURE, List.of("deploy"));
        }
        List<Integer> ranks = new ArrayList<>();
        ResultCost thousandEach = new ResultCost() {
            @Override
            public int recalled(RecalledMemory result, RecallMode mode, int rank) {
                ranks.add(rank);
                return 1000;
            }

            @Override
            public int briefingLine(dev.engram.memory.Memory memory) {
                throw new AssertionError("recall prices no briefing line");
            }
        };
        RecallResult none = f.engine.recall(recall("deploy release").budgetTokens(500).build(), thousandEach);
        assertTrue(none.results().isEmpty(), "no result fits 500 tokens at 1000 each");
        assertTrue(none.budgetLimited());
        assertEquals(0, none.tokens());
        assertEquals(List.of(1, 1, 1, 1, 1, 1), ranks, "nothing kept, so each would print first");
        assertTrue(none.notes().get(0).startsWith("6 result(s) left out to stay within budget_tokens 500"), none.notes().get(0));

        ranks.clear();
        RecallResult two = f.engine.recall(recall("deploy release").budgetTokens(2500).build(), thousandEach);
        assertEquals(2, two.results().size());
        assertEquals(2000, two.tokens());
        assertEquals(List.of(1, 2, 3, 3, 3, 3), ranks);
        RecallResult all = f.engine.recall(recall("deploy release").build(), thousandEach);
        assertEquals(6, all.results().size(), "no budget, no cut");
        assertEquals(6000, all.tokens(), "tokens are the caller's prices");
    }

    @Test
    void explainGivesOneDeterministicLineWhoseContributionsSumToTheScore() {
        RecalledMemory r = explainedSlowQuery(f);
        assertNotNull(r.reason());
        assertTrue(r.reason().startsWith("bm25 1.00 · 100% match (+1.00)"), r.reason());
        assertTrue(r.reason().contains("errors never fade"), r.reason());
        double sum = r.contributions().stream().mapToDouble(Contribution::value).sum();
        assertEquals(r.score(), sum, 1e-3);
        assertEquals(r.reason(), explainedSlowQuery(new EngineFixture()).reason(), "same state, same line");
        assertNull(f.engine.recall(EngineFixture.query("slow orders query"), COST).results().get(0).reason(),
                "no reason without explain");
    }

    private static RecalledMemory explainedSlowQuery(EngineFixture fx) {
        fx.remember("slow-query", "The orders query is slow without an index on customer_id", MemoryType.ERROR, List.of("db"));
        return fx.engine.recall(recall("slow orders query").explain(true).build(), COST).results().get(0);
    }

    @Test
    void importanceWarningsAndPinsShapeTheOrder() {
        f.remember("plain", "Builds use the maven wrapper", Importance.LOW);
        f.remember("critical", "Builds must use the maven wrapper pinned version", Importance.CRITICAL);
        assertEquals("critical", keys(f.engine.recall(EngineFixture.query("maven wrapper builds"), COST)).get(0));

        f.remember("pinned-one", "Always run the formatter before committing", MemoryType.PREFERENCE, List.of("git"));
        f.engine.pin(new PinCommand("pinned-one", null, 3));
        List<String> order = keys(f.engine.recall(EngineFixture.query("maven wrapper"), COST));
        assertEquals("pinned-one", order.get(0), "pinned memories lead even without a term match: " + order);
    }

    @Test
    void expiredAndSupersededAreHiddenUnlessAsOfAsksForThePast() {
        f.engine.remember(new RememberCommand("Staging database is on host alpha", "staging-db", null, null, null,
                null, "2d", null, null, null, null, false, null, null));
        f.remember("api-v1", "The public API version is v1", MemoryType.FACT, List.of("api"));
        f.clock.advance(Duration.ofDays(1));
        f.engine.remember(new RememberCommand("The public API version is v2", "api-v2", null, List.of("api"), null,
                null, null, List.of(LinkSpec.parse("supersedes:api-v1")), null, null, null, false, null, null));
        assertEquals(List.of("api-v2"), keys(f.engine.recall(EngineFixture.query("public api version"), COST)));
        assertEquals(List.of("api-v1"), keys(f.engine.recall(recall("public api version").asOf("2026-11-29T12:00:00Z").build(), COST)));

        f.clock.advance(Duration.ofDays(2));
        assertTrue(f.engine.recall(EngineFixture.query("staging database"), COST).results().isEmpty(), "expired");
        assertEquals(List.of("staging-db"),
                keys(f.engine.recall(recall("staging database").asOf("2026-11-30").build(), COST)));
    }

    @Test
    void includeSupersededFindsTheReplacedMemoryTooButNeverArchivedOnes() {
        f.remember("api-v1", "The public API version is v1", MemoryType.FACT, List.of("api"));
        f.remember("api-v0", "The public API version is v0", MemoryType.FACT, List.of("api"));
        f.engine.forget(new ForgetCommand("api-v0", null, ForgetAction.SOFT));
        f.clock.advance(Duration.ofDays(1));
        f.engine.remember(new RememberCommand("The public API version is v2", "api-v2", null, List.of("api"), null,
                null, null, List.of(LinkSpec.parse("supersedes:api-v1")), null, null, null, false, null, null));
        f.clock.advance(Duration.ofDays(2));
        assertEquals(List.of("api-v2"), keys(f.engine.recall(EngineFixture.query("public api version"), COST)));
        assertEquals(Set.of("api-v2", "api-v1"), Set.copyOf(keys(f.engine.recall(recall("public api version")
                .includeSuperseded(true).build(), COST))), "the archived v0 stays out");
        assertEquals(Set.of("api-v2", "api-v1"), Set.copyOf(keys(f.engine.recall(recall("").mode(RecallMode.INDEX)
                .tags(List.of("api")).includeSuperseded(true).build(), COST))), "the listing too");
        // as of a time after the supersession, the replaced memory comes back only when asked for
        assertEquals(List.of("api-v2"), keys(f.engine.recall(recall("public api version").asOf("2026-12-01").build(), COST)));
        assertEquals(Set.of("api-v2", "api-v1"), Set.copyOf(keys(f.engine.recall(recall("public api version")
                .asOf("2026-12-01").includeSuperseded(true).build(), COST))));
    }

    /** A plain date names its whole day (toon-memory compares dates so): "up to today" and "as of today" include today. */
    @Test
    void aPlainDateAsTheUpperEndOrAsOfIncludesThatWholeDay() {
        f.remember("api-v1", "The public API version is v1", MemoryType.FACT, List.of("api"));  // 2026-11-29 10:00
        f.clock.advance(Duration.ofHours(3));
        f.engine.remember(new RememberCommand("The public API version is v2", "api-v2", null, List.of("api"), null,
                null, null, List.of(LinkSpec.parse("supersedes:api-v1")), null, null, null, false, null, null));
        assertEquals(Set.of("api-v1", "api-v2"), Set.copyOf(keys(f.engine.recall(recall("public api version")
                .to("2026-11-29").includeSuperseded(true).build(), COST))), "written on the 29th: within to 2026-11-29");
        assertTrue(f.engine.recall(recall("public api version").to("2026-11-28").build(), COST).results().isEmpty());
        // as of the 29th: what was written that day counts, and v1, superseded during it, was still valid on it
        assertEquals(Set.of("api-v1", "api-v2"), Set.copyOf(keys(f.engine.recall(recall("public api version")
                .asOf("2026-11-29").build(), COST))));
        assertEquals(List.of("api-v2"), keys(f.engine.recall(recall("public api version").asOf("2026-11-30").build(), COST)),
                "superseded before the 30th began");
        assertTrue(f.engine.recall(recall("public api version").asOf("2026-11-28").build(), COST).results().isEmpty());
        // an instant is an instant: at 11:00 only v1 existed
        assertEquals(List.of("api-v1"), keys(f.engine.recall(recall("public api version").asOf("2026-11-29T11:00:00Z").build(), COST)));
    }

    @Test
    void asOfShowsTheContentAMemoryHadThen() {
        f.remember("pool", "Pool size is 10", MemoryType.DECISION, List.of("db"));
        f.clock.advance(Duration.ofDays(3));
        f.engine.amend(new AmendCommand("pool", null, "Pool size is 25", null, null));
        assertEquals("Pool size is 25", f.engine.recall(EngineFixture.query("pool size"), COST).results().get(0).memory().content());
        assertEquals("Pool size is 10", f.engine.recall(recall("pool size").asOf("2026-11-30").build(), COST)
                .results().get(0).memory().content());
    }

    @Test
    void indexModeListsOneLinePerMemoryAndIdsModeFetchesInOrder() {
        RememberResult a = f.remember("alpha", "First thing about testing", MemoryType.FACT, List.of("test"));
        f.clock.advance(Duration.ofMinutes(1));
        RememberResult b = f.remember("beta", "Second thing about testing", MemoryType.FACT, List.of("test"));
        RecallResult index = f.engine.recall(recall("").mode(RecallMode.INDEX).build(), COST);
        assertEquals(List.of("beta", "alpha"), keys(index), "newest first without a query");
        RecallResult ids = f.engine.recall(recall("").mode(RecallMode.IDS)
                .ids(List.of(a.memory().id(), "beta", "m_zzzzzzzzzz")).build(), COST);
        assertEquals(List.of("alpha", "beta"), keys(ids));
        assertEquals(List.of("unknown id or key 'm_zzzzzzzzzz' in zone 'default'"), ids.notes());
        var malformed = assertThrows(InvalidArgumentException.class,
                () -> recall("").mode(RecallMode.IDS).ids(List.of("!!bad")).build());
        assertTrue(malformed.getMessage().startsWith("ids '!!bad' is neither a memory id"), malformed.getMessage());
        assertTrue(b.memory().id().startsWith("m_"));
    }

    @Test
    void aLimitAboveTheCandidateDepthStillGetsThatManyResults() {
        int many = 30;
        for (int i = 0; i < many; i++) {
            f.remember("step-" + i, "Rollout step " + i + " of the canary release", MemoryType.PROCEDURE, List.of("deploy"));
        }
        Engine shallow = new Engine(f.store, f.index, f.clock, dev.engram.analysis.TagVocabulary.builtInOnly(), null,
                RecallSettings.defaults().withDepth(10));
        RecallResult r = shallow.recall(recall("canary rollout").limit(many).build(), COST);
        assertEquals(many, r.results().size());
        assertEquals(many, r.candidates());
    }

    @Test
    void recallCountsAccessAndUnknownZonesFail() {
        RememberResult r = f.remember("counted", "Counting recalls works", MemoryType.FACT, List.of("test"));
        f.engine.recall(EngineFixture.query("counting recalls"), COST);
        f.engine.recall(EngineFixture.query("counting recalls"), COST);
        var m = f.store.get(r.memory().id()).orElseThrow();
        assertEquals(2, m.accessCount());
        assertEquals(f.clock.instant(), m.lastAccessedAt());

        var unknown = assertThrows(NotFoundException.class, () -> f.engine.recall(recall("x").zone("never-used-zone").build(), COST));
        assertTrue(unknown.getMessage().startsWith("zone 'never-used-zone' is unknown; known zones: default"), unknown.getMessage());
        // a zone created on purpose is known before its first memory: a recall there finds nothing, not an error
        f.engine.zoneAdmin().create("created-empty", "made by hand", null);
        assertTrue(f.engine.recall(recall("x").zone("created-empty").build(), COST).results().isEmpty());
        var missingQuery = assertThrows(InvalidArgumentException.class, () -> EngineFixture.query(" "));
        assertTrue(missingQuery.getMessage().startsWith("query is required"), missingQuery.getMessage());
        var limit = assertThrows(InvalidArgumentException.class, () -> recall("x").limit(500).build());
        assertTrue(limit.getMessage().startsWith("limit must be 1..100, got 500"), limit.getMessage());
    }

    @Test
    void zonesIsolateMemories() {
        f.engine.remember(new RememberCommand("Team uses trunk based development", "flow", null, List.of("git"), "team",
                null, null, null, null, null, null, false, null, null));
        f.remember("flow", "I prefer feature branches", MemoryType.PREFERENCE, List.of("git"));
        assertEquals("I prefer feature branches",
                f.engine.recall(EngineFixture.query("branches development"), COST).results().get(0).memory().content());
        List<RecalledMemory> team = f.engine.recall(recall("branches development").zone("team").build(), COST).results();
        assertEquals(1, team.size());
        assertEquals("team", team.get(0).memory().zone());
    }
}
