package dev.engram.engine.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.RememberCommand;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Tier;
import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraphViewTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final GraphView view = engine.graphView();

    private String remember(String key, String content) {
        return engine.remember(RememberCommand.builder(content).key(key).build()).memory().id();
    }

    private void link(String from, String to, EdgeType type) {
        engine.link(new LinkCommand(from, to, type, null, false));
    }

    private static List<String> keys(List<GraphNode> nodes) {
        return nodes.stream().map(GraphNode::key).toList();
    }

    /** a - b - c - d in a chain, hub linked to a, b, c and a leaf (so it is the one most linked), and a lone memory. */
    private void chain() {
        remember("a", "alpha service owns the login flow");
        remember("b", "beta queue feeds the alpha service");
        remember("c", "gamma cache sits in front of beta");
        remember("d", "delta dashboard reads the gamma cache");
        remember("hub", "architecture overview of alpha beta gamma");
        remember("lone", "an unrelated note about lunch");
        remember("leaf", "a footnote to the overview");
        link("a", "b", EdgeType.DEPENDS_ON);
        link("b", "c", EdgeType.RELATED);
        link("c", "d", EdgeType.RELATED);
        link("hub", "a", EdgeType.REFERENCES);
        link("hub", "b", EdgeType.REFERENCES);
        link("hub", "c", EdgeType.REFERENCES);
        link("hub", "leaf", EdgeType.REFERENCES);
    }

    @Test
    void sliceKeepsTheMostLinkedMemoriesWithinTheLimitAndOnlyEdgesAmongThem() {
        chain();
        GraphSlice all = view.slice(GraphQuery.of(null));
        assertEquals(7, all.nodes().size());
        assertEquals(7, all.edges().size());
        assertFalse(all.truncated());
        assertEquals("hub", all.nodes().get(0).key());
        assertEquals(4, all.nodes().get(0).degree());

        GraphSlice top = view.slice(new GraphQuery(null, 3, NodeOrder.DEGREE, null));
        assertEquals(Set.of("hub", "b", "c"), Set.copyOf(keys(top.nodes())));
        assertTrue(top.truncated());
        assertEquals(7, top.totalNodes());
        Set<String> ids = Set.copyOf(top.nodes().stream().map(GraphNode::id).toList());
        assertEquals(3, top.edges().size()); // hub-b, hub-c, b-c
        top.edges().forEach(e -> assertTrue(ids.contains(e.from()) && ids.contains(e.to()), e.toString()));
    }

    @Test
    void sliceFiltersEdgesByTypeAndOrdersByImportanceOrRecency() {
        chain();
        GraphSlice refs = view.slice(new GraphQuery(null, null, null, Set.of(EdgeType.REFERENCES)));
        assertEquals(4, refs.edges().size());
        refs.edges().forEach(e -> assertEquals(EdgeType.REFERENCES, e.type()));

        engine.remember(RememberCommand.builder("the incident runbook for alpha").key("runbook").importance(Importance.CRITICAL).build());
        assertEquals("runbook", view.slice(new GraphQuery(null, 1, NodeOrder.IMPORTANCE, null)).nodes().get(0).key());
        clock.advance(Duration.ofMinutes(5));
        remember("newest", "written last");
        assertEquals("newest", view.slice(new GraphQuery(null, 1, NodeOrder.RECENCY, null)).nodes().get(0).key());
    }

    @Test
    void sliceRefusesLimitsOutsideTheBoundsAndNeverReturnsMoreThanTheMaximum() {
        assertThrows(InvalidArgumentException.class, () -> new GraphQuery(null, 0, null, null));
        var e = assertThrows(InvalidArgumentException.class, () -> new GraphQuery(null, GraphQuery.MAX_LIMIT + 1, null, null));
        assertTrue(e.getMessage().contains("1..2000"), e.getMessage());
        store.write(tx -> { // straight into the store: remember's duplicate checks would make this slow
            for (int i = 0; i < 2100; i++) tx.insert(MemoryFixtures.minimal(clock, 1000 + i, "default", "bulk memory " + i).build());
            return null;
        });
        GraphSlice dflt = view.slice(GraphQuery.of(null));
        assertEquals(GraphQuery.DEFAULT_LIMIT, dflt.nodes().size());
        assertEquals(2100, dflt.totalNodes());
        assertTrue(dflt.truncated());
        assertEquals(GraphQuery.MAX_LIMIT, view.slice(new GraphQuery(null, GraphQuery.MAX_LIMIT, null, null)).nodes().size());
    }

    @Test
    void sliceDrawsOnlyActiveMemoriesOfTheZoneWithTierAndFreshness() {
        chain();
        engine.forget(new ForgetCommand("lone", null, ForgetAction.SOFT));
        engine.remember(RememberCommand.builder("elsewhere").key("other-zone").zone("work").build());
        GraphSlice slice = view.slice(GraphQuery.of(null));
        assertFalse(keys(slice.nodes()).contains("lone"));
        assertFalse(keys(slice.nodes()).contains("other-zone"));
        assertEquals(List.of("other-zone"), keys(view.slice(GraphQuery.of("work")).nodes()));
        GraphNode a = slice.nodes().stream().filter(n -> n.key().equals("a")).findFirst().orElseThrow();
        assertEquals(Tier.HOT, a.tier());
        clock.advance(Duration.ofDays(90));
        GraphNode old = view.node(null, "a");
        assertEquals(Tier.COLD, old.tier());
        assertTrue(old.freshnessValue() < a.freshnessValue());
    }

    @Test
    void neighboursExpandOneMemoryWithTheEdgesBetweenThem() {
        chain();
        GraphSlice around = view.neighbours(null, "b", null, null);
        assertEquals("b", around.nodes().get(0).key());
        assertEquals(Set.of("b", "a", "c", "hub"), Set.copyOf(keys(around.nodes())));
        assertEquals(5, around.edges().size()); // a-b, b-c, hub-a, hub-b, hub-c
        GraphSlice one = view.neighbours(null, "b", 1, null);
        assertEquals(List.of("b", "hub"), keys(one.nodes())); // hub (4 links) before c (3) and a (2)
        assertTrue(one.truncated());
        assertEquals(List.of("b", "a"), keys(view.neighbours(null, "b", null, List.of(EdgeType.DEPENDS_ON)).nodes()));
        assertThrows(NotFoundException.class, () -> view.neighbours(null, "nope", null, null));
    }

    @Test
    void searchRanksThroughRecall() {
        chain();
        GraphSearch found = view.search(null, "dashboard", null);
        assertEquals(List.of("d"), keys(found.matches()));
        assertTrue(keys(found.linked()).contains("c"), "recall brings d's neighbour along, as linked: " + keys(found.linked()));
        assertThrows(InvalidArgumentException.class, () -> view.search(null, " ", null));
        assertThrows(InvalidArgumentException.class, () -> view.search(null, "alpha", 101));
    }

    @Test
    void pathIsTheShortestOverEdgesInEitherDirection() {
        chain();
        GraphPath p = view.path(null, "d", "hub", null);
        assertEquals(List.of("d", "c", "hub"), keys(p.nodes()));
        assertEquals(2, p.hops());
        assertEquals(2, p.edges().size());
        assertEquals(EdgeType.RELATED, p.edges().get(0).type());
        assertEquals(EdgeType.REFERENCES, p.edges().get(1).type());

        GraphPath noRefs = view.path(null, "d", "hub", List.of(EdgeType.RELATED, EdgeType.DEPENDS_ON));
        assertFalse(noRefs.found()); // hub is reached by references only

        assertEquals(List.of("a", "b", "c", "d"), keys(view.path(null, "a", "d", List.of(EdgeType.RELATED, EdgeType.DEPENDS_ON)).nodes()));
        assertFalse(view.path(null, "a", "lone", null).found());
        assertThrows(InvalidArgumentException.class, () -> view.path(null, "a", "a", null));
        assertThrows(NotFoundException.class, () -> view.path(null, "a", "missing", null));
    }

    @Test
    void pathSkipsRetiredMemoriesInTheMiddle() {
        chain();
        engine.forget(new ForgetCommand("c", null, ForgetAction.SOFT));
        assertFalse(view.path(null, "d", "hub", null).found()); // d's only link runs through the forgotten c
    }
}
