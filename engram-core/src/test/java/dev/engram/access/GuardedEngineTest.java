package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.engine.ExploreQuery;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.StatsResult;
import dev.engram.error.EngramUserException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import dev.engram.testing.PlainCost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guarded engine: every operation sees the store through the current grants. */
class GuardedEngineTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine raw = new Engine(store, new InMemorySearchIndex(store), clock);
    private final AtomicReference<Grants> grants = new AtomicReference<>(Grants.NONE);
    private final Engine guarded = raw.guarded(grants::get);
    private Memory alphaNote;
    private Memory betaSecret;

    @BeforeEach
    void seed() {
        alphaNote = remember("alpha", "alpha-deploy", "Deploy the alpha service with the blue green script");
        betaSecret = remember("beta", "beta-deploy", "Deploy the beta service only after the vault unseal");
        raw.link(new LinkCommand(alphaNote.id(), betaSecret.id(), EdgeType.RELATED, "alpha", false));
        grants.set(new Grants(Map.of("alpha", Right.READ), null));
    }

    private Memory remember(String zone, String key, String content) {
        return raw.remember(RememberCommand.builder(content).zone(zone).key(key).build()).memory();
    }

    @Test
    void searchFindsOnlyReadableMemories() {
        var r = guarded.recall(RecallQuery.builder("deploy service").zone("alpha").build(), PlainCost.INSTANCE);
        assertEquals(List.of(alphaNote.id()), r.results().stream().map(x -> x.memory().id()).toList());
        // an id of another zone asked for directly is as unknown
        var byIds = guarded.recall(RecallQuery.builder("deploy").zone("alpha").ids(List.of(alphaNote.id(), betaSecret.id()))
                .build(), PlainCost.INSTANCE);
        assertEquals(List.of(alphaNote.id()), byIds.results().stream().map(x -> x.memory().id()).toList());
    }

    @Test
    void anIndexSearchOverEveryZoneSearchesTheReadableOnes() {
        GuardedStore gs = new GuardedStore(store, grants::get);
        GuardedIndex gi = new GuardedIndex(new InMemorySearchIndex(store), gs);
        gi.catchUp();
        var hits = gi.search(new dev.engram.spi.IndexQuery("deploy", null, null, null, null, null, null, 10));
        assertEquals(List.of(alphaNote.id()), hits.stream().map(dev.engram.spi.IndexHit::id).toList());
        assertThrows(AccessDeniedException.class, () -> gi.search(dev.engram.spi.IndexQuery.text("deploy", "beta", 10)));
        grants.set(Grants.NONE);
        assertTrue(gi.search(new dev.engram.spi.IndexQuery("deploy", null, null, null, null, null, null, 10)).isEmpty());
    }

    @Test
    void aForbiddenAndAnUnknownZoneGetTheSameRefusal() {
        String forbidden = refusal(() -> guarded.recall(RecallQuery.builder("deploy").zone("beta").build(), PlainCost.INSTANCE));
        String unknown = refusal(() -> guarded.recall(RecallQuery.builder("deploy").zone("gamma").build(), PlainCost.INSTANCE));
        assertTrue(forbidden.contains("no read right on zone 'beta'"), forbidden);
        assertEquals(forbidden.replace("beta", "Z"), unknown.replace("gamma", "Z"));
        assertEquals(refusal(() -> guarded.stats("beta")).replace("beta", "Z"), refusal(() -> guarded.stats("gamma")).replace("gamma", "Z"));
    }

    @Test
    void aReaderCannotWriteAndNothingIsWritten() {
        long before = store.count();
        String m = refusal(() -> guarded.remember(RememberCommand.builder("A new alpha fact").zone("alpha").build()));
        assertTrue(m.contains("no write right on zone 'alpha'"), m);
        assertTrue(refusal(() -> guarded.forget(new ForgetCommand("alpha-deploy", "alpha", ForgetAction.HARD)))
                .contains("no write right on zone 'alpha'"));
        assertEquals(before, store.count());
        assertTrue(raw.recall(RecallQuery.builder("alpha").ids(List.of(alphaNote.id())).build(), PlainCost.INSTANCE)
                .results().size() == 1);
    }

    /** A write into a zone the caller has no right on names the write right, the one it would need. */
    @Test
    void aWriteWithoutAnyRightOnTheZoneNamesTheWriteRight() {
        String m = refusal(() -> guarded.remember(RememberCommand.builder("An ops fact").zone("beta").build()));
        assertTrue(m.contains("no write right on zone 'beta'"), m);
        String unknown = refusal(() -> guarded.remember(RememberCommand.builder("An ops fact").zone("gamma").build()));
        assertEquals(m.replace("beta", "Z"), unknown.replace("gamma", "Z"), "a zone that exists and one that does not alike");
        assertTrue(refusal(() -> guarded.amend(new AmendCommand("beta-deploy", "beta", "x", null, null))).contains("no write right"));
        assertTrue(refusal(() -> guarded.pin(new dev.engram.engine.PinCommand("beta-deploy", "beta", 2))).contains("no write right"));
    }

    @Test
    void aMemoryOfAnotherZoneLooksUnknownByIdAndItsLinksAreHidden() {
        String byId = refusal(() -> guarded.explore(new ExploreQuery(betaSecret.id(), "alpha", 2)));
        String unknown = refusal(() -> guarded.explore(new ExploreQuery("m_aaaaaaaaaa", "alpha", 2)));
        assertEquals(byId.replace(betaSecret.id(), "X"), unknown.replace("m_aaaaaaaaaa", "X"));
        var explored = guarded.explore(new ExploreQuery(alphaNote.id(), "alpha", 2));
        assertTrue(explored.neighbours().isEmpty(), "the link into beta must not show: " + explored.neighbours());
        assertEquals(1, raw.explore(new ExploreQuery(alphaNote.id(), "alpha", 2)).neighbours().size());
    }

    @Test
    void storeWideAnswersCountOnlyReadableZones() {
        StatsResult all = guarded.stats(null);
        assertEquals(1, all.total());
        assertEquals(Map.of("alpha", 1L), all.byZone());
        assertEquals(0, all.edges(), "the alpha to beta edge is not the reader's");
        assertEquals(java.util.Set.of("alpha"), guarded.zones());
        assertEquals(1, guarded.memoryCount());
        List<ExportRecord> exported = new ArrayList<>();
        guarded.export(null, exported::add);
        assertEquals(List.of(alphaNote.id()), exported.stream().map(e -> e.memory().id()).toList());
        assertTrue(exported.get(0).edges().isEmpty());
        assertThrows(AccessDeniedException.class, () -> guarded.export("beta", exported::add));
        // the whole-zone export in one edge read (toon's data.toon) hides the link into beta just the same
        List<ExportRecord> current = new ArrayList<>();
        guarded.exportCurrent("alpha", current::add);
        assertEquals(List.of(alphaNote.id()), current.stream().map(e -> e.memory().id()).toList());
        assertTrue(current.get(0).edges().isEmpty(), "the alpha to beta edge is not the reader's: " + current.get(0).edges());
        assertThrows(AccessDeniedException.class, () -> guarded.exportCurrent("beta", current::add));
        grants.set(Grants.FULL);
        current.clear();
        guarded.exportCurrent("alpha", current::add);
        assertEquals(1, current.get(0).edges().size(), "a full reader sees it");
    }

    @Test
    void aWriterWritesItsZoneButCannotLinkIntoAnother() {
        grants.set(new Grants(Map.of("alpha", Right.WRITE), null));
        Memory made = guarded.remember(RememberCommand.builder("Alpha uses port 8443 behind the proxy").zone("alpha").build()).memory();
        assertEquals("alpha", made.zone());
        String m = refusal(() -> guarded.link(new LinkCommand(made.id(), betaSecret.id(), EdgeType.RELATED, "alpha", false)));
        assertFalse(m.contains("vault"), m);
        String beta = refusal(() -> guarded.remember(RememberCommand.builder("Beta fact").zone("beta").build()));
        assertTrue(beta.contains("no read right on zone 'beta'") || beta.contains("no write right on zone 'beta'"), beta);
        assertTrue(store.edges(made.id()).stream().noneMatch(e -> e.toId().equals(betaSecret.id())));
        assertEquals(1, store.edges(betaSecret.id()).size(), "only the seeded edge touches beta");
    }

    @Test
    void theDefaultZoneNeedsARightToo() {
        assertTrue(refusal(() -> guarded.recall(RecallQuery.builder("deploy").zone("default").build(), PlainCost.INSTANCE))
                .contains("zone 'default'"));
    }

    @Test
    void nothingBoundMeansNoRight() {
        Engine unbound = raw.guarded(Access::current);
        assertTrue(unbound.zones().isEmpty());
        assertThrows(AccessDeniedException.class, () -> unbound.recall(RecallQuery.builder("deploy").zone("alpha").build(),
                PlainCost.INSTANCE));
        assertEquals(List.of(alphaNote.id()), Access.as(new Grants(Map.of("alpha", Right.READ), null),
                () -> unbound.recall(RecallQuery.builder("deploy").zone("alpha").build(), PlainCost.INSTANCE).results()
                        .stream().map(x -> x.memory().id()).toList()));
    }

    @Test
    void theGuardedEngineCannotSeeThePrincipals() {
        raw.principals().add("ops", Grants.FULL);
        grants.set(Grants.FULL);
        assertTrue(guarded.mark(Principals.MARK).isEmpty());
        assertThrows(AccessDeniedException.class, () -> guarded.setMark(Principals.MARK, "x"));
        assertThrows(IllegalStateException.class, guarded::principals);
        assertEquals(1, raw.principals().list().size());
    }

    private static String refusal(Runnable call) {
        return assertThrows(EngramUserException.class, call::run).getMessage();
    }
}
