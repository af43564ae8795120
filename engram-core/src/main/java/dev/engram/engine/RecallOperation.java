package dev.engram.engine;

import dev.engram.analysis.ScriptFamily;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.rank.Contribution;
import dev.engram.rank.RankFusion;
import dev.engram.rank.RecallRanking;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recall in its modes. Ranked: candidates from the retrieval cascade ({@link CandidateSearch}) →
 * reload from the store (the truth) → filters → score with explainable contributions → pins first →
 * limit → token budget (priced by the caller's {@link ResultCost}). Index: the same list
 * as one line each (or the newest memories when no query is given). Ids: fetch in the given order.
 */
final class RecallOperation {
    /** Index mode lists more because each line is cheap (toon-memory uses 15 as well). */
    static final int INDEX_DEFAULT_LIMIT = 15;

    private final MemoryStore store;
    private final Clock clock;
    private final ZoneGuard zones;
    private final CandidateSearch search;
    private final RecallSettings settings;
    private final SearchIndex index;
    private final ContextActivation activation;

    RecallOperation(MemoryStore store, SearchIndex index, Embedder embedder, RecallSettings settings, Clock clock,
                    ZoneGuard zones, ContextActivation activation) {
        this.store = store;
        this.index = index;
        this.activation = activation;
        this.clock = clock;
        this.zones = zones;
        this.settings = settings;
        this.search = new CandidateSearch(store, index, embedder, settings, QueryVectorLane.SHARED);
    }

    /** One recall; its reads of the store share one check of what the store keeps in memory (MemoryStore#readTogether). */
    RecallResult recall(RecallQuery q, ResultCost cost) {
        return store.readTogether(() -> recallNow(q, cost));
    }

    private RecallResult recallNow(RecallQuery q, ResultCost cost) {
        zones.requireKnown(q.zone());
        Instant now = clock.instant();
        RecallFilter filter = RecallFilter.of(q, now);
        List<String> notes = new ArrayList<>();
        List<String> layers = new ArrayList<>();
        boolean searched = q.mode() != RecallMode.IDS && !(q.mode() == RecallMode.INDEX && q.query().isEmpty());
        Candidates found = searched
                ? search.search(q, filter.statuses(), filter.from(), filter.to(), q.mode() == RecallMode.HYBRID) : null;
        List<RecalledMemory> ranked;
        if (found != null) {
            layers.addAll(found.layers());
            notes.addAll(found.notes());
            ranked = ranked(q, filter, found);
        } else {
            ranked = q.mode() == RecallMode.IDS ? byIds(q, filter, notes) : newest(q, filter);
        }
        int limit = q.limit() != null ? q.limit() : q.mode() == RecallMode.INDEX ? INDEX_DEFAULT_LIMIT
                : q.mode() == RecallMode.IDS ? RecallQuery.MAX_LIMIT : q.budget().results();
        List<RecalledMemory> limited = ranked.subList(0, Math.min(limit, ranked.size()));
        List<RecalledMemory> kept = new ArrayList<>();
        int tokens = 0;
        boolean budgetLimited = false;
        for (RecalledMemory r : limited) {
            int price = cost.added(r, q.mode(), java.util.Collections.unmodifiableList(kept));
            if (q.budgetTokens() != null && tokens + price > q.budgetTokens()) {
                budgetLimited = true;
                if (!cost.skipsWhatDoesNotFit()) break;
                continue; // greedy: a later, shorter result may still fit
            }
            tokens += price;
            kept.add(r);
        }
        if (budgetLimited) {
            notes.add((limited.size() - kept.size()) + " result(s) left out to stay within budget_tokens "
                    + q.budgetTokens() + "; use mode 'index' and fetch by ids for more");
        }
        if (filter.asOf() == null && !q.peek() && !kept.isEmpty()) {
            store.recordAccess(kept.stream().map(r -> r.memory().id()).toList(), now);
        }
        // after this recall is ranked, so it primes the searches that follow and leaves this one's order alone
        if (q.priming() != null) layers.add(activation.prime(store, index, q.zone(), q.priming(), now).layer());
        return new RecallResult(q.mode(), kept, ranked.size(), tokens, budgetLimited, notes, layers,
                found == null ? null : found.stop());
    }

    private List<RecalledMemory> byIds(RecallQuery q, RecallFilter filter, List<String> notes) {
        List<RecalledMemory> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String ref : q.ids()) {
            Memory m = References.find(store, ref, q.zone()).orElse(null);
            if (m == null) {
                notes.add("unknown id or key '" + ref + "' in zone '" + q.zone() + "'");
            } else if (seen.add(m.id())) {
                out.add(new RecalledMemory(filter.asSeen(m, store), 0, 1, List.of(), q.explain() ? "fetched by id" : null));
            }
        }
        return out;
    }

    private List<RecalledMemory> newest(RecallQuery q, RecallFilter filter) {
        List<Memory> all = new ArrayList<>();
        store.forEach(q.zone(), m -> {
            if (filter.accepts(m)) all.add(m);
        });
        all.sort(Comparator.comparing(Memory::pinPriority).reversed().thenComparing(Memory::updatedAt, Comparator.reverseOrder()));
        return all.stream().map(m -> new RecalledMemory(filter.asSeen(m, store), 0, 0, List.of(),
                q.explain() ? "newest first" : null)).toList();
    }

    private List<RecalledMemory> ranked(RecallQuery q, RecallFilter filter, Candidates found) {
        Map<String, Memory> candidates = new LinkedHashMap<>();
        for (Memory m : store.getAll(new ArrayList<>(found.byId().keySet()))) {
            if (filter.accepts(m)) candidates.put(m.id(), m);
        }
        for (Memory pinned : store.pinned(q.zone())) {
            if (filter.accepts(pinned)) candidates.putIfAbsent(pinned.id(), pinned);
        }
        boolean graph = settings.runs(RecallStep.GRAPH) || q.mode() == RecallMode.HYBRID || q.hops() != null;
        // one query for every candidate's link count; nothing to ask when neither the graph layer nor rank fusion reads it
        Map<String, Integer> links = graph && settings.centralityWeight() > 0 || q.rankFusion()
                ? store.degrees(candidates.keySet()) : Map.of();
        Map<String, Double> fused = q.rankFusion() ? rankFused(candidates.keySet(), found, links) : null;
        ScriptFamily queryScript = q.bias().sameScript() != 0 ? ScriptFamily.of(q.query()) : ScriptFamily.NONE;
        List<RecalledMemory> out = new ArrayList<>(candidates.size());
        for (Memory m : candidates.values()) {
            Candidates.Signals signals = found.byId().get(m.id());
            List<Contribution> parts;
            if (fused != null) {
                parts = new ArrayList<>(RecallRanking.fusedContributions(m, fused.get(m.id()), settings.boostScale()));
                // the ranks already hold what the link passed on; the part says that a link brought it in
                if (signals != null && signals.graph() > 0 && signals.fused() == 0 && !signals.exact()) {
                    parts.add(new Contribution("graph", 0, () -> "linked: " + signals.graphVia()));
                }
            } else {
                double match = signals == null ? 0 : signals.exact() ? 1.0 : signals.fused();
                parts = new ArrayList<>(RecallRanking.contributions(m, match, filter.referenceTime(), settings.boostScale()));
                if (signals != null && signals.graph() > 0 && !signals.exact()) {
                    parts.add(new Contribution("graph", signals.graph(), () -> "linked: " + signals.graphVia()));
                }
                Integer degree = links.get(m.id());
                if (degree != null) parts.add(RecallRanking.centrality(degree, settings.centralityWeight()));
            }
            if (q.bias().any()) parts.addAll(q.bias().contributions(m, RecallRanking.sum(parts), queryScript));
            double score = RecallRanking.sum(parts);
            out.add(new RecalledMemory(filter.asSeen(m, store), round(score), round(signals == null ? 0 : signals.relevance()),
                    parts, q.explain() ? reason(m, parts, signals) : null));
        }
        // scores compared unboxed: a Double per comparison was 3-6% of a recall's allocation (docs/benchmarks.md)
        out.sort(Comparator.comparingInt((RecalledMemory r) -> r.memory().pinPriority()).reversed()
                .thenComparing(Comparator.comparingDouble(RecalledMemory::score).reversed())
                .thenComparing(r -> r.memory().updatedAt(), Comparator.reverseOrder())
                // keys before ids: ids are random, so equal scores would otherwise order differently per store
                .thenComparing(r -> r.memory().zone()).thenComparing(r -> r.memory().key()));
        return out;
    }

    /**
     * Reciprocal-rank scores of the candidates: ranked by relevance (the layers' match, a neighbour's share
     * through the graph) and by link count ({@link RankFusion}).
     */
    private static Map<String, Double> rankFused(Set<String> ids, Candidates found, Map<String, Integer> links) {
        Map<String, Double> relevance = new HashMap<>();
        Map<String, Double> degree = new HashMap<>();
        for (String id : ids) {
            Candidates.Signals s = found.byId().get(id);
            relevance.put(id, s == null ? 0 : s.relevance());
            degree.put(id, (double) links.getOrDefault(id, 0));
        }
        return RankFusion.fuse(relevance, degree);
    }

    /** One deterministic line: the layers' evidence, every contribution with its value, then use and pin facts. */
    private static String reason(Memory m, List<Contribution> parts, Candidates.Signals signals) {
        StringBuilder sb = new StringBuilder();
        if (m.pinned()) sb.append("pinned p").append(m.pinPriority()).append(" · ");
        if (signals != null && signals.exact()) sb.append("exact key/id · ");
        if (signals != null && signals.lexical() != null) sb.append(String.format(Locale.ROOT, "bm25 %.2f · ", signals.lexical()));
        if (signals != null && signals.semantic() != null) sb.append(String.format(Locale.ROOT, "semantic %.2f · ", signals.semantic()));
        for (Contribution c : parts) {
            sb.append(c.reason()).append(String.format(Locale.ROOT, " (%+.2f) · ", c.value()));
        }
        sb.append(m.accessCount() == 0 ? "never recalled" : "recalled " + m.accessCount() + "×");
        return sb.toString();
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    /** Filters re-checked on the loaded record: the store is the truth, the index only proposes. */
    /**
     * {@code asOf} is the last instant whose writes count (a memory created or amended after it is not seen as it is
     * now); {@code referenceTime} is when a memory must still have been valid (not superseded, not expired) and the
     * instant ranking ages from. They differ only for an {@code as_of} given as a plain date, which names its whole
     * day: what was written that day counts, and what was superseded or expired during it still shows, as
     * toon-memory compares dates.
     */
    record RecallFilter(Instant referenceTime, Instant asOf, Instant from, Instant to, Set<String> tags,
                        Set<dev.engram.memory.MemoryType> types, java.nio.file.PathMatcher path, boolean superseded) {

        static RecallFilter of(RecallQuery q, Instant now) {
            Instant validAt = q.asOf() == null ? null : MemoryRules.pointInTime("as_of", q.asOf(), now);
            Instant asOf = q.asOf() == null ? null : MemoryRules.endOfPointInTime("as_of", q.asOf(), now);
            Instant from = q.from() == null ? null : MemoryRules.pointInTime("from", q.from(), now);
            // a plain date as the upper end includes that day
            Instant to = q.to() == null ? null : MemoryRules.endOfPointInTime("to", q.to(), now);
            if (from != null && to != null && from.isAfter(to)) {
                throw new dev.engram.error.InvalidArgumentException("from", "(" + q.from() + ") is after to (" + q.to() + "); swap them");
            }
            java.nio.file.PathMatcher path = null;
            if (q.path() != null) {
                String glob = dev.engram.memory.MemoryRules.path("path", q.path());
                try {
                    path = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
                } catch (RuntimeException e) {
                    throw new dev.engram.error.InvalidArgumentException("path", dev.engram.memory.MemoryRules.shown(glob)
                            + " is not a valid glob; send e.g. src/**/*.java");
                }
            }
            return new RecallFilter(validAt != null ? validAt : now, asOf, from, to, Set.copyOf(q.tags()), q.types(), path,
                    q.includeSuperseded());
        }

        Set<MemoryStatus> statuses() {
            return asOf == null && !superseded ? Set.of(MemoryStatus.ACTIVE) : Set.of(MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED);
        }

        boolean accepts(Memory m) {
            if (asOf == null) {
                if (m.status() != MemoryStatus.ACTIVE && !(superseded && m.status() == MemoryStatus.SUPERSEDED)) return false;
            } else {
                if (m.createdAt().isAfter(asOf)) return false;
                if (m.status() == MemoryStatus.ARCHIVED || m.status() == MemoryStatus.DRAFT) return false;
                // superseded by then: left out, unless the caller asked for superseded memories too
                if (!superseded && m.supersededAt() != null && !m.supersededAt().isAfter(referenceTime)) return false;
            }
            if (m.expiredAt(referenceTime)) return false;
            if (!types.isEmpty() && !types.contains(m.type())) return false;
            if (!m.tags().containsAll(tags)) return false;
            if (from != null && m.createdAt().isBefore(from)) return false;
            if (to != null && m.createdAt().isAfter(to)) return false;
            if (path != null && !matchesPath(m)) return false;
            return true;
        }

        private boolean matchesPath(Memory m) {
            for (String p : new String[] {m.file(), m.pathScope()}) {
                if (p == null) continue;
                try {
                    if (path.matches(java.nio.file.Path.of(p))) return true;
                } catch (RuntimeException e) {
                    // a stored path that is not a valid path on this OS cannot match
                }
            }
            return false;
        }

        /** With {@code as_of}, a memory amended later is shown with the content it had then. */
        Memory asSeen(Memory m, MemoryStore store) {
            if (asOf == null || !m.updatedAt().isAfter(asOf)) return m;
            for (MemoryVersion v : store.versions(m.id())) {
                if (v.replacedAt().isAfter(asOf)) {
                    return m.toBuilder().content(v.content()).tags(v.tags()).importance(v.importance()).build();
                }
            }
            return m;
        }
    }
}
