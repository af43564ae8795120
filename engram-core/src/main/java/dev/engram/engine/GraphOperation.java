package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoreTransaction;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed edges: link, unlink and the neighbourhood walk. A {@code supersedes} edge retires its target. */
final class GraphOperation {
    /** Weight of a neighbour d hops away (toon-memory's graph decay). */
    static final double HOP_DECAY = 0.5;

    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;

    GraphOperation(MemoryStore store, SearchIndex index, Clock clock) {
        this.store = store;
        this.index = index;
        this.clock = clock;
    }

    LinkResult link(LinkCommand cmd) {
        Instant now = clock.instant();
        LinkResult result = store.write(tx -> {
            Memory from = References.require(tx, cmd.from(), cmd.zone());
            Memory to = References.require(tx, cmd.to(), cmd.zone());
            if (from.id().equals(to.id())) {
                throw new InvalidArgumentException("to", "names the same memory as from ('" + from.key() + "'); link two different memories");
            }
            Edge edge = new Edge(from.id(), to.id(), cmd.type(), now);
            boolean exists = tx.edges(from.id()).stream().anyMatch(e -> e.fromId().equals(from.id())
                    && e.toId().equals(to.id()) && e.type() == cmd.type() && e.label() == null);
            if (cmd.remove()) {
                boolean removed = tx.removeEdge(from.id(), to.id(), cmd.type(), null);
                if (removed && cmd.type() == EdgeType.SUPERSEDES && to.status() == MemoryStatus.SUPERSEDED
                        && from.id().equals(to.supersededBy())) {
                    tx.update(to.toBuilder().status(MemoryStatus.ACTIVE).supersededAt(null).supersededBy(null).updatedAt(now).build());
                }
                return new LinkResult(edge, from, tx.get(to.id()).orElse(to), removed);
            }
            if (!exists) {
                addEdge(tx, edge, now);
            }
            return new LinkResult(edge, from, tx.get(to.id()).orElse(to), !exists);
        });
        index.catchUpAfterWrite();
        return result;
    }

    /** Adds the edge; a {@code supersedes} edge also marks its target superseded (kept for {@code as_of}). */
    static void addEdge(StoreTransaction tx, Edge edge, Instant now) {
        tx.addEdge(edge);
        if (edge.type() == EdgeType.SUPERSEDES) {
            tx.get(edge.toId()).filter(t -> t.status() == MemoryStatus.ACTIVE).ifPresent(t -> tx.update(t.toBuilder()
                    .status(MemoryStatus.SUPERSEDED).supersededAt(now).supersededBy(edge.fromId()).updatedAt(now).build()));
        }
    }

    ExploreResult explore(ExploreQuery q) {
        Memory center = References.require(store, q.ref(), q.zone());
        Map<String, ExploreResult.Neighbour> reached = new LinkedHashMap<>();
        List<String> frontier = List.of(center.id());
        for (int hop = 1; hop <= q.hops(); hop++) {
            List<String> next = new ArrayList<>();
            for (String id : frontier) {
                for (Edge e : store.edges(id)) {
                    String other = e.other(id);
                    if (other.equals(center.id()) || reached.containsKey(other)) continue;
                    Optional<Memory> m = store.get(other);
                    if (m.isEmpty()) continue;
                    reached.put(other, new ExploreResult.Neighbour(m.get(), hop, e.type(), e.fromId().equals(id), id,
                            Math.pow(HOP_DECAY, hop)));
                    next.add(other);
                }
            }
            frontier = next;
        }
        List<ExploreResult.Neighbour> neighbours = new ArrayList<>(reached.values());
        neighbours.sort(Comparator.comparingInt(ExploreResult.Neighbour::hops)
                .thenComparing(n -> n.via().ordinal()).thenComparing(n -> n.memory().key()));
        return new ExploreResult(center, neighbours, store.versions(center.id()));
    }
}
