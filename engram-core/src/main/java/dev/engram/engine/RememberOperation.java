package dev.engram.engine;

import dev.engram.analysis.StopWords;
import dev.engram.analysis.TagVocabulary;
import dev.engram.analysis.Words;
import dev.engram.engine.lifecycle.ContradictionCheck;
import dev.engram.engine.lifecycle.DuplicateMerge;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.Origin;
import dev.engram.rank.QualityPolicy;
import dev.engram.rank.QualityScore;
import dev.engram.spi.Embedder;
import dev.engram.spi.IndexHit;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoreTransaction;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Upsert by key within a zone, with merge, tag inference, link resolution and near-duplicate detection. */
final class RememberOperation {
    private static final Pattern WIKI_LINK = Pattern.compile("\\[\\[([a-z0-9][a-z0-9._-]{0,79})]]");
    /** Candidates checked for near-duplicates; Jaccard ≥ 0.7 implies strong BM25 overlap, so the top few suffice. */
    private static final int DUPLICATE_CANDIDATES = 10;
    private static final int DUPLICATE_QUERY_WORDS = 24;

    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;
    private final TagVocabulary vocabulary;
    private final MemoryIds ids;
    private final Embedder embedder;
    private final Episodes episodes = new Episodes();

    RememberOperation(MemoryStore store, SearchIndex index, Clock clock, TagVocabulary vocabulary, MemoryIds ids,
                      Embedder embedder) {
        this.store = store;
        this.index = index;
        this.clock = clock;
        this.vocabulary = vocabulary;
        this.ids = ids;
        this.embedder = embedder;
    }

    /** One remember; the reads that prepare it share one check of what the store keeps in memory (MemoryStore#readTogether). */
    RememberResult remember(RememberCommand cmd) {
        return store.readTogether(() -> rememberNow(cmd));
    }

    private RememberResult rememberNow(RememberCommand cmd) {
        Instant now = clock.instant();
        Prepared p = prepare(cmd, now);
        RememberResult result = store.write(tx -> store(tx, p, episodes.previous(cmd.zone(), cmd.session(), now), List.of()))
                .withConflicts();
        finish(List.of(p), List.of(result));
        return result;
    }

    /**
     * Remembers every command in one store transaction: all are checked and embedded first (a bad one throws before
     * anything is written), then all are written or, when the storage fails part way, none is. Each item is what
     * {@link #remember} would have done in its place, conflicts included: an item is also checked against the items
     * before it in the batch (they are not in the search index yet), and identical contents merge as they would one
     * after the other. The episode chain runs through the batch in order.
     */
    List<RememberResult> rememberAll(List<RememberCommand> commands) {
        if (commands.isEmpty()) return List.of();
        Instant now = clock.instant();
        List<Prepared> prepared = new ArrayList<>();
        for (RememberCommand cmd : commands) prepared.add(prepare(cmd, now));
        List<Stored> stored = store.write(tx -> {
            List<Stored> out = new ArrayList<>();
            java.util.Map<String, String> lastCreated = new java.util.HashMap<>(); // zone + session -> id, within the batch
            List<Memory> written = new ArrayList<>();
            for (Prepared p : prepared) {
                String slot = p.cmd.zone() + '\0' + p.cmd.session();
                Optional<String> previous = p.cmd.session() == null ? Optional.empty()
                        : lastCreated.containsKey(slot) ? Optional.of(lastCreated.get(slot))
                        : episodes.previous(p.cmd.zone(), p.cmd.session(), now);
                Stored r = store(tx, p, previous, earlierNeighbours(p, written, prepared));
                if (r.result().outcome() == RememberResult.Outcome.CREATED && p.cmd.session() != null) {
                    lastCreated.put(slot, r.result().memory().id());
                }
                written.add(r.result().memory());
                out.add(r);
            }
            return out;
        });
        List<RememberResult> results = stored.stream().map(Stored::withConflicts).toList();
        finish(prepared, results);
        return results;
    }

    /** What remember works out before it takes the write lock: the command's values, its vector and its neighbourhood. */
    private record Prepared(RememberCommand cmd, Instant now, Instant expiresAt, Instant occurredAt, MemoryType type,
                            List<String> inferred, List<String> tags, StoredEmbedding vector,
                            RememberResult.NearDuplicate duplicate, List<Memory> conflictCandidates, String mergeInto) {
    }

    private Prepared prepare(RememberCommand cmd, Instant now) {
        Instant expiresAt = cmd.ttl() == null ? null : MemoryRules.ttl("ttl", cmd.ttl(), now);
        Instant occurredAt = cmd.occurredAt() == null ? null : MemoryRules.pointInTime("occurred_at", cmd.occurredAt(), now);
        MemoryType type = cmd.type() != null ? cmd.type() : MemoryType.FACT;
        List<String> inferred = cmd.tags().isEmpty()
                ? vocabulary.infer(cmd.content() + " " + (cmd.file() == null ? "" : cmd.file())) : List.of();
        List<String> tags = cmd.tags().isEmpty() ? inferred : cmd.tags();
        // embedded outside the write lock: the model's ~10 ms should not hold up other writers
        StoredEmbedding vector = Embeddings.embed(embedder, cmd.content()).orElse(null);
        // one index query serves both write-time checks: near-duplicates (same type) and contradictions (any type)
        Neighbourhood near = neighbourhood(cmd.content(), cmd.zone(), vector);
        RememberResult.NearDuplicate duplicate = nearDuplicate(near, cmd.content(), cmd.zone(), type, cmd.key(), vector,
                vector == null ? Double.NaN : Similarity.unrelatedCosine(embedder, vector.modelId()));
        List<Memory> conflictCandidates = conflictCandidates(near, cmd.zone(), now);
        String mergeInto = cmd.mergeDuplicate() && duplicate != null && cmd.key() == null ? duplicate.key() : null;
        return new Prepared(cmd, now, expiresAt, occurredAt, type, inferred, tags, vector, duplicate, conflictCandidates, mergeInto);
    }

    /**
     * The memories a batch wrote before {@code p} in its zone, closest first ({@link Engine#WRITE_CONFLICT_CANDIDATES}
     * of them): by cosine when both have vectors, else by word-set Jaccard. They stand in for the index hits they
     * would have been had the items been remembered one after the other.
     */
    private static List<Memory> earlierNeighbours(Prepared p, List<Memory> written, List<Prepared> prepared) {
        if (written.isEmpty()) return List.of();
        Set<String> words = Words.setOf(p.cmd.content());
        List<java.util.Map.Entry<Memory, Double>> scored = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            Memory m = written.get(i);
            if (!m.zone().equals(p.cmd.zone())) continue;
            StoredEmbedding other = prepared.get(i).vector;
            double score = p.vector != null && other != null && other.modelId().equals(p.vector.modelId())
                    ? cosine(p.vector.vector(), other.vector()) : Words.jaccard(words, Words.setOf(m.content()));
            scored.add(java.util.Map.entry(m, score));
        }
        scored.sort(java.util.Map.Entry.<Memory, Double>comparingByValue().reversed());
        return scored.stream().limit(Engine.WRITE_CONFLICT_CANDIDATES).map(java.util.Map.Entry::getKey).toList();
    }

    private static double cosine(float[] a, float[] b) {
        if (a.length != b.length) return 0;
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /**
     * What a write stored, and the memories its conflicts are checked against once the transaction has committed: the
     * check reads only these values, and inside the transaction it was half of the time the write lock was held (issue
     * 18's load), time every other writer of the process waited.
     */
    private record Stored(RememberResult result, List<Memory> candidates) {
        RememberResult withConflicts() {
            RememberResult r = result;
            return new RememberResult(r.memory(), r.outcome(), r.inferredTags(), r.nearDuplicate(), r.quality(), r.linked(),
                    conflicts(r.memory(), candidates));
        }
    }

    /** The write itself, inside {@code tx}; {@code alsoCompare}: memories of the same batch to check for conflicts. */
    private Stored store(StoreTransaction tx, Prepared p, Optional<String> previousEpisode, List<Memory> alsoCompare) {
        RememberCommand cmd = p.cmd;
        Instant now = p.now;
        List<String> tags = p.tags;
        Optional<Memory> existing = Optional.empty();
        String key = p.mergeInto != null ? p.mergeInto : cmd.key();
        if (key != null) {
            existing = tx.getByKey(cmd.zone(), key);
        } else {
            key = freeDerivedKey(tx, cmd);
            existing = tx.getByKey(cmd.zone(), key); // present only when the content is identical
        }
        Memory saved;
        RememberResult.Outcome outcome;
        if (existing.isEmpty()) {
            saved = Memory.builder().id(ids.next()).key(key).zone(cmd.zone()).type(p.type).content(cmd.content())
                    .tags(tags).file(cmd.file()).pathScope(cmd.pathScope()).importance(cmd.importance())
                    .relevance(cmd.relevance() != null ? cmd.relevance() : 1.0)
                    .confidence(1.0).status(MemoryStatus.ACTIVE).createdAt(now).updatedAt(now)
                    .expiresAt(p.expiresAt).occurredAt(p.occurredAt)
                    .origin(cmd.origin() != null ? cmd.origin() : Origin.AGENT)
                    .session(cmd.session()).branch(cmd.branch()).build();
            tx.insert(saved);
            outcome = RememberResult.Outcome.CREATED;
        } else {
            Memory old = existing.get();
            boolean replace = cmd.replace() && !old.content().equals(cmd.content());
            if (replace) {
                tx.addVersion(new MemoryVersion(old.id(), tx.versionCount(old.id()) + 1, old.content(), old.tags(),
                        old.importance(), now));
            }
            saved = old.toBuilder()
                    .content(replace ? cmd.content() : old.content())
                    .tags(MemoryRules.union(old.tags(), cmd.tags().isEmpty() && !replace ? List.of() : tags))
                    .importance(Importance.higher(old.importance(), cmd.importance()))
                    .relevance(cmd.relevance() != null ? Math.max(old.relevance(), cmd.relevance()) : old.relevance())
                    .file(cmd.file() != null ? cmd.file() : old.file())
                    .pathScope(cmd.pathScope() != null ? cmd.pathScope() : old.pathScope())
                    .origin(cmd.origin() != null ? Origin.higher(old.origin(), cmd.origin()) : old.origin())
                    .expiresAt(p.expiresAt != null ? p.expiresAt : old.expiresAt())
                    .occurredAt(p.occurredAt != null ? p.occurredAt : old.occurredAt())
                    .status(old.status() == MemoryStatus.ARCHIVED ? MemoryStatus.ACTIVE : old.status())
                    .confidence(Math.max(old.confidence(), 1.0))
                    .updatedAt(now).build();
            tx.update(saved);
            outcome = replace ? RememberResult.Outcome.REPLACED : RememberResult.Outcome.MERGED;
        }
        if (outcome != RememberResult.Outcome.MERGED) {
            // new or replaced content: its vector must describe this content, or there must be none
            if (p.vector != null) tx.putEmbedding(saved.id(), p.vector);
            else tx.clearEmbedding(saved.id());
        }
        List<String> linked = addLinks(tx, saved, cmd, now);
        if (outcome == RememberResult.Outcome.CREATED) {
            previousEpisode.filter(prev -> tx.get(prev).isPresent())
                    .ifPresent(prev -> tx.addEdge(new Edge(saved.id(), prev, EdgeType.FOLLOWS, now)));
        }
        // an inferred episode link says when a memory was written, not how well it is connected
        int linkCount = (int) tx.edges(saved.id()).stream()
                .filter(e -> e.fromId().equals(saved.id()) && e.type() != EdgeType.FOLLOWS).count();
        QualityScore quality = QualityPolicy.score(saved, linkCount, now);
        double q = outcome == RememberResult.Outcome.MERGED ? Math.max(saved.quality(), quality.total()) : quality.total();
        Memory withQuality = saved.toBuilder().quality(q).build();
        tx.update(withQuality);
        MemoryNotes.put(tx, saved.id(), cmd.notes());
        RememberResult.NearDuplicate dup = p.duplicate != null && p.duplicate.id().equals(withQuality.id()) ? null : p.duplicate;
        List<Memory> candidates = p.conflictCandidates;
        if (!alsoCompare.isEmpty()) {
            List<Memory> all = new ArrayList<>(candidates);
            for (Memory m : alsoCompare) if (all.stream().noneMatch(x -> x.id().equals(m.id()))) all.add(m);
            candidates = all;
        }
        return new Stored(new RememberResult(withQuality, outcome, outcome == RememberResult.Outcome.CREATED ? p.inferred
                : List.of(), dup, quality, linked, List.of()), candidates);
    }

    /** After the commit: the episode tracker learns what each session wrote last, the index catches up soon. */
    private void finish(List<Prepared> prepared, List<RememberResult> results) {
        for (int i = 0; i < results.size(); i++) {
            RememberCommand cmd = prepared.get(i).cmd;
            if (results.get(i).outcome() == RememberResult.Outcome.CREATED) {
                episodes.wrote(cmd.zone(), cmd.session(), results.get(i).memory().id(), prepared.get(i).now);
            }
        }
        index.catchUpAfterWrite();
    }

    /**
     * A key derived from the content's first words. Two different contents with the same first words
     * get -2, -3, … so that a derived key never merges unrelated memories; identical content reuses
     * the key and merges.
     */
    private static String freeDerivedKey(StoreTransaction tx, RememberCommand cmd) {
        for (int n = 1; ; n++) {
            String candidate = MemoryRules.derivedKey(cmd.content(), n);
            Optional<Memory> taken = tx.getByKey(cmd.zone(), candidate);
            if (taken.isEmpty() || taken.get().content().equals(cmd.content())) {
                return candidate;
            }
        }
    }

    private List<String> addLinks(StoreTransaction tx, Memory from, RememberCommand cmd, Instant now) {
        List<String> linked = new ArrayList<>();
        for (LinkSpec link : cmd.links()) {
            Memory target = References.find(tx, link.target(), cmd.zone()).orElseThrow(() -> new NotFoundException(
                    "links: no memory with id or key '" + link.target() + "' in zone '" + cmd.zone()
                            + "'; remember the target first or drop the link"));
            if (target.id().equals(from.id())) {
                continue;
            }
            GraphOperation.addEdge(tx, new Edge(from.id(), target.id(), link.type(), now), now);
            linked.add(link.type().wireName() + ":" + target.key());
        }
        Set<String> mentioned = new LinkedHashSet<>();
        Matcher m = WIKI_LINK.matcher(from.content());
        while (m.find()) mentioned.add(m.group(1));
        for (String key : mentioned) {
            Optional<Memory> target = tx.getByKey(cmd.zone(), key);
            if (target.isPresent() && !target.get().id().equals(from.id())) {
                tx.addEdge(new Edge(from.id(), target.get().id(), EdgeType.MENTIONS, now));
                linked.add(EdgeType.MENTIONS.wireName() + ":" + key);
            }
        }
        return linked;
    }

    /**
     * The memories around a new content, best first, and the vector index's hits among them ({@code hits}, scored
     * (1 + cos) / 2; empty without a vector): the semantic near-duplicate check reads those scores.
     */
    private record Neighbourhood(List<IndexHit> hits, List<Memory> memories) {
    }

    /**
     * The memories of the zone nearest a new content, any type: from BM25 over its first content words ({@link #neighbourhoodWords}: a whole memory as a
     * query costs more than the rest of remember) and, when the content has a vector, the vector index's kNN too,
     * taken in turn. {@link #DUPLICATE_CANDIDATES} + {@link Engine#WRITE_CONFLICT_CANDIDATES} of each: a near-duplicate
     * (70% of its words shared) ranks at the top whatever the other memories' types.
     */
    private Neighbourhood neighbourhood(String content, String zone, StoredEmbedding vector) {
        int k = DUPLICATE_CANDIDATES + Engine.WRITE_CONFLICT_CANDIDATES;
        List<IndexHit> lexical = index.search(new IndexQuery(neighbourhoodWords(content), Set.of(zone), Set.of(), Set.of(),
                Set.of(MemoryStatus.ACTIVE), null, null, k, IndexQuery.Match.CONTENT_WORDS));
        if (vector == null) {
            return new Neighbourhood(List.of(), lexical.isEmpty() ? List.of() : store.getAll(lexical.stream().map(IndexHit::id).toList()));
        }
        // semantic and lexical neighbours in turn: a memory without a vector yet (just imported, its embedding still
        // on the backfill's list) is found by its words, so a warning it holds is checked whether or not the model
        // has reached it
        List<IndexHit> semantic = index.searchVector(new VectorQuery(vector.vector(), vector.modelId(), Set.of(zone), Set.of(),
                Set.of(), Set.of(MemoryStatus.ACTIVE), null, null, k));
        java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
        for (int i = 0; i < Math.max(semantic.size(), lexical.size()); i++) {
            if (i < semantic.size()) ids.add(semantic.get(i).id());
            if (i < lexical.size()) ids.add(lexical.get(i).id());
        }
        return new Neighbourhood(semantic, ids.isEmpty() ? List.of() : store.getAll(List.copyOf(ids)));
    }

    /**
     * Lexical near-duplicate (word-set Jaccard ≥ {@link Engine#NEAR_DUPLICATE_JACCARD}) of the same zone
     * and type among the neighbourhood, or failing that a semantic one (rescaled cosine, {@link Similarity}, ≥ {@link Engine#NEAR_DUPLICATE_COSINE}).
     */
    private static RememberResult.NearDuplicate nearDuplicate(Neighbourhood near, String content, String zone, MemoryType type,
                                                              String ownKey, StoredEmbedding vector, double unrelatedCosine) {
        Set<String> words = Words.setOf(content);
        RememberResult.NearDuplicate best = null;
        for (Memory m : near.memories()) {
            if (m.key().equals(ownKey) || !m.zone().equals(zone) || m.type() != type) {
                continue;
            }
            double sim = Words.jaccard(words, Words.setOf(m.content()));
            if (sim >= Engine.NEAR_DUPLICATE_JACCARD && (best == null || sim > best.similarity())) {
                best = new RememberResult.NearDuplicate(m.id(), m.key(), Math.round(sim * 1000) / 1000.0, "words");
            }
        }
        if (best != null || vector == null) {
            return best;
        }
        java.util.Map<String, Memory> byId = new java.util.HashMap<>();
        for (Memory m : near.memories()) byId.put(m.id(), m);
        double unrelated = unrelatedCosine;
        if (Double.isNaN(unrelated)) return null;
        for (IndexHit h : near.hits()) {
            double cosine = Similarity.ofIndexScore(h.score(), unrelated);
            if (cosine < Engine.NEAR_DUPLICATE_COSINE) break;
            Memory m = byId.get(h.id());
            if (m != null && !m.key().equals(ownKey) && m.type() == type && m.zone().equals(zone)) {
                return new RememberResult.NearDuplicate(m.id(), m.key(), Math.round(cosine * 1000) / 1000.0, "meaning");
            }
        }
        return null;
    }

    /**
     * The few memories a new content is checked against for a contradiction: the top
     * {@link Engine#WRITE_CONFLICT_CANDIDATES} of the neighbourhood that are active and of the zone.
     */
    private static List<Memory> conflictCandidates(Neighbourhood near, String zone, Instant now) {
        return near.memories().stream()
                .filter(m -> m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now) && m.zone().equals(zone))
                .limit(Engine.WRITE_CONFLICT_CANDIDATES).toList();
    }

    /**
     * Which candidates the saved memory may contradict: the deterministic {@link ContradictionCheck} (values,
     * negation), or toon's overlap with a warning or a critical/high memory. Closest first, at most
     * {@link Engine#MAX_WRITE_CONFLICTS}; the saved memory itself is never one.
     */
    private static List<RememberResult.Conflict> conflicts(Memory saved, List<Memory> candidates) {
        return conflicts(saved.id(), DuplicateMerge.lexicalWords(saved), saved.content(), candidates);
    }

    /**
     * The conflicts remembering {@code cmd} would report, with nothing written: the same checks against the same
     * candidates (Memento's {@code dryRun}). The batch's own earlier items are not among them.
     */
    List<RememberResult.Conflict> conflictsOf(RememberCommand cmd) {
        Prepared p = prepare(cmd, clock.instant());
        return conflicts(null, DuplicateMerge.lexicalWords(cmd.key(), cmd.content(), p.tags()), cmd.content(), p.conflictCandidates());
    }

    private static List<RememberResult.Conflict> conflicts(String savedId, Set<String> words, String content, List<Memory> candidates) {
        if (candidates.isEmpty()) return List.of();
        List<RememberResult.Conflict> out = new ArrayList<>();
        for (Memory m : candidates) {
            if (m.id().equals(savedId)) continue;
            double sim = Math.round(DuplicateMerge.jaccard(words, DuplicateMerge.lexicalWords(m)) * 1000) / 1000.0;
            Optional<ContradictionCheck.Finding> f = ContradictionCheck.compare(m.content(), content);
            if (f.isPresent()) {
                out.add(new RememberResult.Conflict(m.id(), m.key(), m.content(), m.type(), m.importance(), sim, f.get().basis().wireName(),
                        f.get().detail()));
            } else if (m.type() == MemoryType.WARNING && sim >= Engine.WARNING_OVERLAP) {
                out.add(new RememberResult.Conflict(m.id(), m.key(), m.content(), m.type(), m.importance(), sim, "overlap",
                        "overlaps a warning: possible landmine"));
            } else if ((m.importance() == Importance.CRITICAL || m.importance() == Importance.HIGH) && sim >= Engine.STRONG_OVERLAP) {
                out.add(new RememberResult.Conflict(m.id(), m.key(), m.content(), m.type(), m.importance(), sim, "overlap",
                        "may contradict an existing " + m.importance().wireName() + " " + m.type().wireName()));
            }
        }
        out.sort(java.util.Comparator.comparingDouble(RememberResult.Conflict::similarity).reversed());
        return out.subList(0, Math.min(out.size(), Engine.MAX_WRITE_CONFLICTS));
    }

    /**
     * The words a remember's neighbourhood is searched by: the first {@link #DUPLICATE_QUERY_WORDS} distinct words
     * that are not English function words ({@link StopWords}), in order; a text of function words only is searched by
     * its first words as they are. Function words hold about half of a sentence's words and the longest postings of
     * the index, yet weigh a fifth in BM25 and are not what makes two memories neighbours; leaving them out cut the
     * query's CPU by about a quarter at 10k memories, while 190 of 193 generated near-duplicates were found either way
     * and 94% of the top five candidates stayed among the top fifteen (issue 18's load, docs/benchmarks.md §10).
     */
    static String neighbourhoodWords(String content) {
        List<String> words = Words.of(content);
        Set<String> picked = new LinkedHashSet<>();
        for (String w : words) {
            if (picked.size() == DUPLICATE_QUERY_WORDS) break;
            if (!StopWords.contains(w)) picked.add(w);
        }
        if (picked.isEmpty()) return String.join(" ", words.subList(0, Math.min(words.size(), DUPLICATE_QUERY_WORDS)));
        return String.join(" ", picked);
    }
}
