package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RememberTest {
    private final EngineFixture f = new EngineFixture();

    @Test
    void newMemoryGetsIdDerivedKeyAndDefaults() {
        RememberResult r = f.remember("Use Zod for request validation in the API layer");
        assertEquals(RememberResult.Outcome.CREATED, r.outcome());
        assertTrue(MemoryRules.isId(r.memory().id()), r.memory().id());
        assertEquals("use-zod-for-request-validation-in", r.memory().key());
        assertEquals(MemoryType.FACT, r.memory().type());
        assertEquals("default", r.memory().zone());
        assertEquals(Origin.AGENT, r.memory().origin());
        assertEquals(f.clock.instant(), r.memory().createdAt());
    }

    @Test
    void sameKeyMergesTagsKeepsContentAndHigherImportanceWins() {
        RememberResult first = f.engine.remember(new RememberCommand("Redis needs AUTH in prod", "redis-auth",
                MemoryType.WARNING, List.of("redis"), null, Importance.LOW, null, null, null, null, null, false, null, null));
        f.clock.advance(Duration.ofHours(2));
        RememberResult second = f.engine.remember(new RememberCommand("Something else entirely", "redis-auth",
                null, List.of("prod"), null, Importance.HIGH, null, null, null, null, null, false, null, null));
        assertEquals(RememberResult.Outcome.MERGED, second.outcome());
        assertEquals(first.memory().id(), second.memory().id());
        assertEquals("Redis needs AUTH in prod", second.memory().content());
        assertEquals(List.of("redis", "prod"), second.memory().tags());
        assertEquals(Importance.HIGH, second.memory().importance());
        assertEquals(f.clock.instant(), second.memory().updatedAt());
        assertEquals(first.memory().createdAt(), second.memory().createdAt());
        assertTrue(second.memory().quality() >= first.memory().quality());

        RememberResult lower = f.engine.remember(new RememberCommand("x", "redis-auth", null, null, null,
                Importance.LOW, null, null, null, null, null, false, null, null));
        assertEquals(Importance.HIGH, lower.memory().importance(), "a lower explicit importance never wins");
    }

    @Test
    void replaceOverwritesContentAndRecordsThePreviousVersion() {
        f.remember("db-pool", "Pool size is 10", MemoryType.DECISION, List.of("db"));
        RememberResult r = f.engine.remember(new RememberCommand("Pool size is 20", "db-pool", null, null, null, null,
                null, null, null, null, null, true, null, null));
        assertEquals(RememberResult.Outcome.REPLACED, r.outcome());
        assertEquals("Pool size is 20", r.memory().content());
        var history = f.store.versions(r.memory().id());
        assertEquals(1, history.size());
        assertEquals("Pool size is 10", history.get(0).content());
    }

    @Test
    void derivedKeysOfDifferentContentNeverMerge() {
        RememberResult a = f.remember("Deploy with the blue green script on Fridays");
        RememberResult b = f.remember("Deploy with the blue green script only after QA");
        assertNotEquals(a.memory().id(), b.memory().id());
        assertEquals(a.memory().key() + "-2", b.memory().key());
        RememberResult again = f.remember("Deploy with the blue green script on Fridays");
        assertEquals(a.memory().id(), again.memory().id(), "identical content merges into the same memory");
        assertEquals(RememberResult.Outcome.MERGED, again.outcome());
    }

    @Test
    void emptyTagsAreInferredFromTheVocabulary() {
        RememberResult r = f.remember("The Redis connection fails with NOAUTH when the password is missing");
        assertTrue(r.memory().tags().contains("redis"), r.memory().tags().toString());
        assertTrue(r.memory().tags().contains("auth"), r.memory().tags().toString());
        assertEquals(r.memory().tags(), r.inferredTags());
        RememberResult explicit = f.remember("k1", "Redis is used for sessions", MemoryType.FACT, List.of("infra"));
        assertEquals(List.of("infra"), explicit.memory().tags());
        assertTrue(explicit.inferredTags().isEmpty());
    }

    @Test
    void anEventTimeIsKeptBesideTheRecordingTimeAndABadOneWritesNothing() {
        Instant now = f.clock.instant();
        Memory dated = f.engine.remember(RememberCommand.builder("We moved the office to Busan").key("move")
                .occurredAt("2023-05-08").build()).memory();
        assertEquals(Instant.parse("2023-05-08T00:00:00Z"), dated.occurredAt());
        assertEquals(now, dated.createdAt(), "recorded now, happened then");
        assertEquals(now.minus(Duration.ofDays(3)), f.engine.remember(RememberCommand.builder("Three days ago the build broke")
                .key("broke").occurredAt("3d").build()).memory().occurredAt());
        assertEquals(Instant.parse("2023-05-08T00:00:00Z"), f.engine.remember(RememberCommand.builder("We moved the office to Busan")
                .key("move").build()).memory().occurredAt(), "a merge without one keeps the event time");
        assertEquals(null, f.engine.remember(RememberCommand.of("No time given")).memory().occurredAt());
        long before = f.store.count();
        var bad = assertThrows(InvalidArgumentException.class,
                () -> f.engine.remember(RememberCommand.builder("x").key("bad-time").occurredAt("last tuesday").build()));
        assertTrue(bad.getMessage().startsWith("occurred_at 'last tuesday' is not a date"), bad.getMessage());
        assertEquals(before, f.store.count(), "nothing written");
    }

    @Test
    void ttlAcceptsDurationsAndDatesAndRejectsNonsense() {
        Instant now = f.clock.instant();
        RememberResult hours = f.engine.remember(new RememberCommand("temporary note", "t1", null, null, null, null,
                "24h", null, null, null, null, false, null, null));
        assertEquals(now.plus(Duration.ofHours(24)), hours.memory().expiresAt());
        RememberResult days = f.engine.remember(new RememberCommand("week note", "t2", null, null, null, null,
                "7d", null, null, null, null, false, null, null));
        assertEquals(now.plus(Duration.ofDays(7)), days.memory().expiresAt());
        RememberResult date = f.engine.remember(new RememberCommand("dated note", "t3", null, null, null, null,
                "2027-01-15", null, null, null, null, false, null, null));
        assertEquals(Instant.parse("2027-01-15T00:00:00Z"), date.memory().expiresAt());

        var bad = assertThrows(InvalidArgumentException.class, () -> f.engine.remember(new RememberCommand("x", "t4",
                null, null, null, null, "tomorrow-ish", null, null, null, null, false, null, null)));
        assertTrue(bad.getMessage().startsWith("ttl 'tomorrow-ish' is not a TTL"), bad.getMessage());
        var past = assertThrows(InvalidArgumentException.class, () -> f.engine.remember(new RememberCommand("x", "t5",
                null, null, null, null, "2020-01-01", null, null, null, null, false, null, null)));
        assertTrue(past.getMessage().contains("in the past"), past.getMessage());
        assertEquals(3, f.store.count(), "a rejected remember writes nothing");
    }

    @Test
    void nearDuplicateInSameZoneAndTypeIsReported() {
        RememberResult a = f.remember("api-retry", "Retry failed API calls three times with exponential backoff",
                MemoryType.PATTERN, List.of("api"));
        RememberResult b = f.remember("api-retry-2", "Retry failed API calls three times with an exponential backoff",
                MemoryType.PATTERN, List.of("api"));
        assertNotNull(b.nearDuplicate());
        assertEquals(a.memory().key(), b.nearDuplicate().key());
        assertTrue(b.nearDuplicate().similarity() >= Engine.NEAR_DUPLICATE_JACCARD);
        RememberResult otherType = f.remember("api-retry-3", "Retry failed API calls three times with exponential backoff",
                MemoryType.DECISION, List.of("api"));
        assertNull(otherType.nearDuplicate(), "a different type is not a duplicate");
    }

    @Test
    void theNeighbourhoodIsSearchedByContentWordsEachOnce() {
        assertEquals("deploy script run migration slow",
                RememberOperation.neighbourhoodWords("The deploy script must run before the migration, and the deploy is slow"));
        String thirty = java.util.stream.IntStream.rangeClosed(1, 30).mapToObj(i -> "word" + i)
                .collect(java.util.stream.Collectors.joining(" the "));
        assertEquals(java.util.stream.IntStream.rangeClosed(1, 24).mapToObj(i -> "word" + i)
                .collect(java.util.stream.Collectors.joining(" ")), RememberOperation.neighbourhoodWords(thirty),
                "24 content words at most, function words between them not counted");
        assertEquals("it is what it is", RememberOperation.neighbourhoodWords("It is what it is"),
                "a text of function words only is searched by them");
    }

    @Test
    void aNearDuplicateOfFunctionWordsOnlyIsStillFound() {
        // its neighbourhood query falls back to the function words; without them it would search nothing
        RememberResult a = f.remember("saying", "It is what it is", MemoryType.FACT, List.of());
        RememberResult b = f.remember("saying-2", "It is what it was", MemoryType.FACT, List.of());
        assertNotNull(b.nearDuplicate());
        assertEquals(a.memory().key(), b.nearDuplicate().key());
    }

    @Test
    void linksNeedExistingTargetsAndRollBackOtherwise() {
        RememberResult target = f.remember("root-cause", "The cache TTL was zero", MemoryType.ERROR, List.of("cache"));
        RememberResult linked = f.engine.remember(new RememberCommand("Set the cache TTL to 60s", "fix", null, null,
                null, null, null, List.of(LinkSpec.parse("resolved_by:root-cause")), null, null, null, false, null, null));
        assertEquals(List.of("resolved_by:root-cause"), linked.linked());
        var edges = f.store.edges(target.memory().id());
        assertEquals(1, edges.size());
        assertEquals(EdgeType.RESOLVED_BY, edges.get(0).type());

        long before = f.store.count();
        var e = assertThrows(NotFoundException.class, () -> f.engine.remember(new RememberCommand("dangling", "d1",
                null, null, null, null, null, List.of(LinkSpec.parse("no-such-key")), null, null, null, false, null, null)));
        assertTrue(e.getMessage().contains("no-such-key"), e.getMessage());
        assertEquals(before, f.store.count(), "the memory with a bad link was not written");
    }

    @Test
    void wikiLinksBecomeMentionEdges() {
        RememberResult target = f.remember("zod", "Zod validates input", MemoryType.FACT, List.of("api"));
        RememberResult r = f.remember("uses", "Handlers call [[zod]] before touching the database", MemoryType.PATTERN, List.of("api"));
        assertEquals(List.of("mentions:zod"), r.linked());
        assertEquals(target.memory().id(), f.store.edges(r.memory().id()).get(0).toId());
    }

    @Test
    void validationRejectsBadFieldsWithSpecificMessages() {
        var longContent = assertThrows(InvalidArgumentException.class, () -> RememberCommand.of("x".repeat(8001)));
        assertEquals("content is 8001 characters, over the limit of 8000; split it into several memories and link them",
                longContent.getMessage());
        var key = assertThrows(InvalidArgumentException.class, () -> new RememberCommand("c", "Bad Key", null, null,
                null, null, null, null, null, null, null, false, null, null));
        assertTrue(key.getMessage().startsWith("key 'Bad Key' is not a valid key"), key.getMessage());
        var tag = assertThrows(InvalidArgumentException.class, () -> new RememberCommand("c", null, null,
                List.of("ok", "no spaces"), null, null, null, null, null, null, null, false, null, null));
        assertTrue(tag.getMessage().startsWith("tags 'no spaces' is not a valid tag"), tag.getMessage());
        var type = assertThrows(InvalidArgumentException.class, () -> MemoryType.parse("type", "thought"));
        assertTrue(type.getMessage().contains("decision, pattern, error"), type.getMessage());
        var zone = assertThrows(InvalidArgumentException.class, () -> new RememberCommand("c", null, null, null,
                "Bad Zone", null, null, null, null, null, null, false, null, null));
        assertTrue(zone.getMessage().startsWith("zone 'Bad Zone' is not a valid zone name"), zone.getMessage());
    }

    @Test
    void qualityRewardsTagsLinksDetailAndHumanOrigin() {
        RememberResult bare = f.remember("bare", "short", MemoryType.FACT, List.of("x"));
        RememberResult rich = f.engine.remember(new RememberCommand(
                "Connection pool exhaustion under load came from leaked transactions in the batch importer; close them in finally blocks",
                "rich", MemoryType.ERROR, List.of("db", "performance", "error"), null, null, null,
                List.of(LinkSpec.parse("bare")), null, null, Origin.HUMAN, false, null, null));
        assertTrue(rich.memory().quality() > bare.memory().quality() + 0.3,
                bare.memory().quality() + " vs " + rich.memory().quality());
        assertEquals(0.3, rich.quality().tags());
        assertEquals(0.1, rich.quality().links());
        assertEquals(0.2, rich.quality().detail(), "over 60 characters, under 150");
        assertEquals(0.1, rich.quality().origin());
        assertEquals(rich.quality().total(), rich.memory().quality());
    }

    @Test
    void theBuilderGivesTheSameCommandAsTheConstructorAndValidates() {
        RememberCommand built = RememberCommand.builder("Use zod for request validation").key("use-zod")
                .type(dev.engram.memory.MemoryType.DECISION).tags(List.of("api")).zone("web").file("src/api/x.ts")
                .replace(true).mergeDuplicate(true).build();
        assertEquals(new RememberCommand("Use zod for request validation", "use-zod", dev.engram.memory.MemoryType.DECISION,
                List.of("api"), "web", null, null, null, "src/api/x.ts", null, null, true, null, null, true), built);
        assertThrows(dev.engram.error.InvalidArgumentException.class, () -> RememberCommand.builder(" ").build());
    }

    @Test
    void notesAreWrittenWithTheMemoryAndAMergeReplacesOnlyTheNamedOnes() {
        RememberResult r = f.engine.remember(RememberCommand.builder("The nightly export timed out twice")
                .notes(java.util.Map.of("goal", "Find why the export is slow", "outcome", "  ")).build());
        assertEquals(java.util.Map.of("goal", "Find why the export is slow"), f.engine.notes("default", r.memory().id()),
                "a blank note is no note");
        f.engine.remember(RememberCommand.builder("The nightly export timed out twice")
                .notes(java.util.Map.of("outcome", "Line 1\nline 2 with a \\ and a\ttab")).build());
        java.util.Map<String, String> notes = f.engine.notes("default", r.memory().id());
        assertEquals("Find why the export is slow", notes.get("goal"));
        assertEquals("Line 1\nline 2 with a \\ and a\ttab", notes.get("outcome"));
        assertEquals(java.util.Map.of(), f.engine.notes("other", r.memory().id()), "read in the memory's zone only");
        assertEquals(java.util.Map.of(), f.engine.notes("default", f.remember("no notes here").memory().id()));
        assertTrue(new Engine(f.store, f.index, f.clock).notes("default", r.memory().id()).containsKey("goal"),
                "in the store, not in the engine");

        var name = assertThrows(InvalidArgumentException.class, () -> RememberCommand.builder("x")
                .notes(java.util.Map.of("Goal!", "y")).build());
        assertTrue(name.getMessage().contains("is not a note name"), name.getMessage());
        var big = assertThrows(InvalidArgumentException.class, () -> RememberCommand.builder("x")
                .notes(java.util.Map.of("goal", "y".repeat(MemoryNotes.MAX_CHARS + 1))).build());
        assertEquals("goal is 2001 characters; send at most 2000", big.getMessage());
    }

}
