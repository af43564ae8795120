package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Episodes inferred from the write session: each new memory follows the one its session wrote just before. */
class EpisodesTest {
    private final EngineFixture f = new EngineFixture();
    /** Every entry costs the same: these tests are about which memories come back, not budgets. */
    private static final ResultCost FLAT = new ResultCost() {
        @Override
        public int recalled(RecalledMemory result, RecallMode mode, int rank) {
            return 10;
        }

        @Override
        public int briefingLine(dev.engram.memory.Memory memory) {
            return 10;
        }
    };

    private String write(String session, String key, String content) {
        f.clock.advance(Duration.ofSeconds(20));
        return f.engine.remember(RememberCommand.builder(content).key(key).session(session).build()).memory().id();
    }

    private List<Edge> follows(String id) {
        return f.store.edges(id).stream().filter(e -> e.type() == EdgeType.FOLLOWS && e.fromId().equals(id)).toList();
    }

    private List<String> recalledKeys(String query) {
        return f.engine.recall(EngineFixture.query(query), FLAT).results().stream().map(r -> r.memory().key()).toList();
    }

    /** The answer turn shares one word with the question; a stronger distractor from elsewhere shares it twice. */
    private List<String> askAfterWriting(String session) {
        write("other", "distractor", "Holiday holiday photos from Spain are on the shared drive.");
        write(session, "trip-question", "Melanie: Where did you go on your holiday in Portugal?");
        write(session, "trip-answer", "Caroline: The holiday was hiking the coast near Lagos, we loved it.");
        write(session, "unrelated", "Caroline: My cat knocked the plant off the shelf again.");
        return recalledKeys("holiday Portugal");
    }

    @Test
    void consecutiveMemoriesOfOneSessionAnswerAQuestionTogether() {
        List<String> keys = askAfterWriting("claude-code/s1");
        assertEquals("trip-question", keys.get(0), keys.toString());
        assertTrue(keys.indexOf("trip-answer") < keys.indexOf("distractor"),
                "the answer is lifted by its episode above the distractor: " + keys);
        assertFalse(keys.contains("unrelated"), "a neighbour with nothing of the query stays out: " + keys);
    }

    @Test
    void withoutASessionNothingIsInferred() {
        List<String> keys = askAfterWriting(null);
        assertEquals(List.of(), follows(f.store.getByKey("default", "trip-answer").orElseThrow().id()));
        assertTrue(keys.indexOf("distractor") < keys.indexOf("trip-answer"), "no episode: the distractor wins: " + keys);
    }

    @Test
    void twoSessionsAreNeverJoinedEvenWhenTheirWritesInterleave() {
        String a1 = write("cursor/a", "a1", "Session A starts the database migration");
        String b1 = write("claude-code/b", "b1", "Session B reviews the login page");
        String a2 = write("cursor/a", "a2", "Session A finishes the database migration");
        String b2 = write("claude-code/b", "b2", "Session B approves the login page");
        assertEquals(List.of(), follows(a1), "the first memory of a session follows nothing");
        assertEquals(List.of(), follows(b1));
        assertEquals(List.of(a1), follows(a2).stream().map(Edge::toId).toList());
        assertEquals(List.of(b1), follows(b2).stream().map(Edge::toId).toList());
    }

    @Test
    void aLongPauseStartsANewEpisodeAndAMergeOrForgottenMemoryIsSkipped() {
        String first = write("s", "first", "Morning work on the parser");
        f.clock.advance(Episodes.GAP.plusMinutes(1));
        String later = write("s", "later", "Evening work on the renderer");
        assertEquals(List.of(), follows(later), "over " + Episodes.GAP + " apart: a new episode");
        // writing an existing key merges; a merge is not a new memory and links nothing
        f.engine.remember(RememberCommand.builder("Morning work on the parser").key("first").session("s").build());
        assertEquals(List.of(), follows(first));
        f.engine.forget(new ForgetCommand("later", null, ForgetAction.HARD));
        String next = write("s", "next", "Night work on the tests");
        assertEquals(List.of(), follows(next), "the previous memory is gone: nothing to follow");
    }

    @Test
    void anEpisodeLinkDoesNotRaiseQuality() {
        write("s", "one", "Deploy the service with the blue green script");
        RememberResult second = f.engine.remember(RememberCommand.builder("Roll back with the same script if health checks fail")
                .key("two").session("s").build());
        RememberResult alone = new EngineFixture().engine.remember(
                RememberCommand.builder("Roll back with the same script if health checks fail").key("two").build());
        assertEquals(1, follows(second.memory().id()).size());
        assertEquals(alone.quality().links(), second.quality().links());
    }

    @Test
    void sessionsIdleForLongerThanTheGapAreForgottenOnceThereAreMany() {
        Episodes episodes = new Episodes();
        java.time.Instant t = java.time.Instant.parse("2026-12-01T10:00:00Z");
        for (int i = 0; i < Episodes.PRUNE_ABOVE; i++) episodes.wrote("z", "old-" + i, "m" + i, t);
        java.time.Instant later = t.plus(Episodes.GAP).plusSeconds(1);
        episodes.wrote("z", "fresh", "m-new", later);
        assertEquals(1, episodes.sessionsTracked(), "only the session still within the gap is kept");
        assertEquals(java.util.Optional.of("m-new"), episodes.previous("z", "fresh", later));
    }
}
