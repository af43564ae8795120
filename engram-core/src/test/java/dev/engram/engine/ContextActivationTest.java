package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A recall's context primes the memories it names and their neighbours, once per session and window. */
class ContextActivationTest {
    private final EngineFixture f = new EngineFixture();

    private String remember(String key, String content) {
        return f.remember(key, content, MemoryType.FACT, List.of()).memory().id();
    }

    private long reads(String id) {
        return f.store.get(id).orElseThrow().accessCount();
    }

    private RecallResult recall(String query, String context, String session) {
        return f.engine.recall(EngineFixture.recall(query).priming(context == null ? null : new ContextPriming(context, session))
                .build(), PlainCost.INSTANCE);
    }

    @Test
    void theContextsMemoriesAndTheirNeighboursAreReadOnceTheRecallIsRanked() {
        String seed = remember("pool", "The Redis pool holds 64 connections");
        String linked = remember("timeouts", "Calls time out under load");
        String inbound = remember("fix", "Raised the limit after the incident");
        String far = remember("far", "Two hops away, linked to the timeouts");
        String unrelated = remember("tabs", "The team indents with tabs");
        String cli = remember("cli", "The CLI takes a --remote flag");
        f.engine.link(new LinkCommand("pool", "timeouts", EdgeType.CAUSED_BY, null, false));
        f.engine.link(new LinkCommand("fix", "pool", EdgeType.RESOLVED_BY, null, false));
        f.engine.link(new LinkCommand("timeouts", "far", EdgeType.RELATED, null, false));

        RecallResult r = recall("remote flag", "Tuning the Redis pool before the release", "claude/s1");
        assertEquals(List.of(cli), r.results().stream().map(x -> x.memory().id()).toList(), "the recall itself is the query's");
        assertEquals(0, r.results().get(0).memory().accessCount(), "its answer is ranked and shown before the priming");
        assertTrue(r.layers().contains("context: primed 3 (1 seed(s), 2 neighbour(s))"), r.layers().toString());
        assertEquals(1, reads(seed));
        assertEquals(1, reads(linked), "a neighbour the seed links to");
        assertEquals(1, reads(inbound), "a neighbour that links to the seed");
        assertEquals(0, reads(far), "one hop only");
        assertEquals(0, reads(unrelated));
        assertEquals(1, reads(cli), "read once, by the recall that found it: the context does not name it");
    }

    @Test
    void aSessionPrimesAMemoryOncePerWindowAndAnotherSessionAgain() {
        String seed = remember("pool", "The Redis pool holds 64 connections");
        recall("pool", "Redis pool sizing", "s1");
        long afterFirst = reads(seed);
        RecallResult again = recall("nothing matches this", "Redis pool sizing", "s1");
        assertEquals(afterFirst, reads(seed), "the same session within 10 minutes: not again");
        assertTrue(again.layers().contains("context: primed 0 (1 seed(s), 0 neighbour(s), the rest already primed in this session)"),
                again.layers().toString());
        recall("nothing matches this", "Redis pool sizing", "s2");
        assertEquals(afterFirst + 1, reads(seed), "another session primes it");
        f.clock.advance(Duration.ofMinutes(10));
        recall("nothing matches this", "Redis pool sizing", "s1");
        assertEquals(afterFirst + 2, reads(seed), "a new window after 10 minutes");
    }

    @Test
    void onlyLiveMemoriesOfTheZoneAreReadAndFunctionWordsSeedNothing() {
        String kept = remember("pool", "The Redis pool holds 64 connections");
        String gone = remember("old-pool", "The Redis pool held 8 connections");
        f.engine.forget(new ForgetCommand("old-pool", null, ForgetAction.SOFT));
        String other = f.engine.remember(RememberCommand.builder("The Redis pool of the other team").zone("other").build()).memory().id();
        recall("anything", "Redis pool", null);
        assertEquals(1, reads(kept));
        assertEquals(0, reads(gone), "archived");
        assertEquals(0, reads(other), "another zone");

        RecallResult none = recall("anything", "what did we do about it then", null);
        assertTrue(none.layers().contains("context: primed 0 (0 seed(s), 0 neighbour(s))"), none.layers().toString());
        assertEquals(List.of("redis", "pool", "sizing"), ContextActivation.words("What? Redis pool, redis POOL sizing a"),
                "content words once each, in order, without function words and single letters");
        assertEquals(8, ContextActivation.words("one two three four five six seven eight nine ten").size(), "the first eight");
    }

    @Test
    void aBlankOrOverlongContextIsRefusedBeforeAnythingIsRead() {
        String seed = remember("pool", "The Redis pool holds 64 connections");
        var blank = assertThrows(InvalidArgumentException.class, () -> new ContextPriming("  ", null));
        assertTrue(blank.getMessage().startsWith("context is blank"), blank.getMessage());
        var big = assertThrows(InvalidArgumentException.class, () -> new ContextPriming("redis ".repeat(500), null));
        assertTrue(big.getMessage().contains("send at most 2000"), big.getMessage());
        assertEquals(0, reads(seed));
    }
}
