package dev.engram.engine;

import dev.engram.error.ConflictException;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.StoreTransaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merge rule of every import, decided record by record against the store before anything is
 * written, so that a dry run reports exactly what the import would do. The rule never loses content:
 * <ul>
 *   <li>a memory the store lacks is created as in the file;
 *   <li>"newer" is {@code updatedAt}; the newer state stays (or becomes) the memory, and the other
 *       one, when its content, tags or importance differ, is added as a version;
 *       {@link ImportPolicy#REPLACE} makes the file's state the memory even when it is older, and still
 *       keeps the stored one as a version;
 *   <li>the file's versions are merged into the stored ones: a version whose content, tags and
 *       importance the history already holds is skipped (two stores that amended the same text keep it
 *       once, though at different times), the others are appended with the next numbers;
 *   <li>edges are added where both ends exist after the import (adding is idempotent);
 *   <li>the file's notes ({@link MemoryNotes}) replace the stored ones of the same name when the file's state
 *       is written, and only add the names the memory has no note of when the stored state stays; the spellings of
 *       hashed tags ({@link TagWords}) are added where the store has none;
 *   <li>a key or display name that belongs to another memory, or an id twice in the file, is a
 *       conflict: the import refuses as a whole, and a dry run lists them.
 * </ul>
 */
final class ImportPlan {
    /** One record: what will be written for it. {@code write} is null when the stored memory stays. */
    private record Step(ExportRecord record, ImportOutcome outcome, String detail, Memory write,
                        boolean insert, boolean contentChanged, List<MemoryVersion> versions) {
    }

    private final List<Step> steps;
    private final List<Edge> edges;
    private final int edgesDropped;

    private ImportPlan(List<Step> steps, List<Edge> edges, int edgesDropped) {
        this.steps = steps;
        this.edges = edges;
        this.edgesDropped = edgesDropped;
    }

    static ImportPlan of(StoreTransaction tx, List<ExportRecord> records, ImportPolicy policy, Instant now) {
        List<Step> steps = new ArrayList<>();
        Map<String, String> keyOwners = new HashMap<>(); // zone + '\0' + key -> id, within the file
        Map<String, String> nameOwners = new HashMap<>(); // zone + '\0' + name -> id, within the file
        Set<String> ids = new HashSet<>();
        for (ExportRecord r : records) {
            steps.add(step(tx, r, policy, now, ids, keyOwners, nameOwners));
        }
        Set<String> present = new HashSet<>();
        for (Step s : steps) if (s.outcome() != ImportOutcome.CONFLICT) present.add(s.record().memory().id());
        List<Edge> edges = new ArrayList<>();
        Set<Link> known = new HashSet<>();
        int dropped = 0;
        for (Step s : steps) {
            if (s.outcome() == ImportOutcome.CONFLICT) continue;
            if (!s.insert()) tx.edges(s.record().memory().id()).forEach(e -> known.add(Link.of(e)));
            for (Edge e : s.record().edges()) {
                boolean endExists = present.contains(e.toId()) || tx.get(e.toId()).isPresent();
                if (!endExists) dropped++; // counted, so the importer says so instead of losing it quietly
                else if (known.add(Link.of(e))) edges.add(e);
            }
        }
        return new ImportPlan(steps, edges, dropped);
    }

    private static Step step(StoreTransaction tx, ExportRecord r, ImportPolicy policy, Instant now, Set<String> ids,
                             Map<String, String> keyOwners, Map<String, String> nameOwners) {
        Memory in = r.memory();
        if (!ids.add(in.id())) return conflict(r, "id " + in.id() + " appears twice in the file");
        String owner = keyOwners.putIfAbsent(in.zone() + '\0' + in.key(), in.id());
        if (owner != null) return conflict(r, "key '" + in.key() + "' in zone '" + in.zone() + "' is used by " + owner
                + " and " + in.id() + " in the file");
        Memory holder = tx.getByKey(in.zone(), in.key()).orElse(null);
        if (holder != null && !holder.id().equals(in.id())) {
            return conflict(r, "key '" + in.key() + "' in zone '" + in.zone() + "' belongs to " + holder.id() + ", not " + in.id());
        }
        if (in.name() != null) {
            String named = nameOwners.putIfAbsent(in.zone() + '\0' + in.name(), in.id());
            if (named != null) return conflict(r, "name '" + in.name() + "' in zone '" + in.zone() + "' is used by " + named
                    + " and " + in.id() + " in the file");
            Memory nameHolder = tx.getByName(in.zone(), in.name()).orElse(null);
            if (nameHolder != null && !nameHolder.id().equals(in.id())) {
                return conflict(r, "name '" + in.name() + "' in zone '" + in.zone() + "' belongs to " + nameHolder.id()
                        + ", not " + in.id());
            }
        }
        Memory stored = tx.get(in.id()).orElse(null);
        if (stored != null && !stored.zone().equals(in.zone())) {
            // ids are the store's, zones share them: taking it would move (and overwrite) another zone's memory
            return conflict(r, "id " + in.id() + " belongs to a memory of zone '" + stored.zone() + "', not '" + in.zone()
                    + "'; an import never moves or replaces another zone's memory (give the record another id)");
        }
        if (stored == null) {
            return new Step(r, ImportOutcome.CREATED, "", in, true, false, renumber(r.versions(), 0));
        }
        List<MemoryVersion> have = tx.versions(in.id());
        List<MemoryVersion> added = new ArrayList<>();
        for (MemoryVersion v : r.versions()) {
            if (have.stream().noneMatch(h -> sameContent(h, v)) && added.stream().noneMatch(a -> sameContent(a, v))) added.add(v);
        }
        int next = have.stream().mapToInt(MemoryVersion::version).max().orElse(0);
        // at the stores' precision (milliseconds): a source with finer times (PostgreSQL's microseconds) is not "newer"
        // than the same state stored from it before
        int cmp = in.updatedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                .compareTo(stored.updatedAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        boolean sameContent = sameContent(in, stored);
        if (withoutAccess(in).equals(withoutAccess(stored)) || (cmp == 0 && sameContent && policy == ImportPolicy.KEEP_NEWER)) {
            return new Step(r, ImportOutcome.UNCHANGED, "", null, false, false, renumber(added, next));
        }
        if (cmp > 0 || policy == ImportPolicy.REPLACE) {
            // the stored state is replaced: keep it as a version unless its content is already kept
            if (!sameContent) keepAsVersion(stored, now, have, added);
            ImportOutcome outcome = cmp > 0 ? ImportOutcome.UPDATED : ImportOutcome.REPLACED;
            String detail = cmp > 0 ? "the file is newer (" + in.updatedAt() + " > " + stored.updatedAt() + ")"
                    : cmp < 0 ? "replaced a newer stored memory (" + stored.updatedAt() + " > " + in.updatedAt() + ")"
                    : "replaced the stored memory, updated at the same time";
            if (!sameContent) detail += "; the stored content is kept as a version";
            return new Step(r, outcome, detail, in, false, !in.content().equals(stored.content()), renumber(added, next));
        }
        // the stored state stays: the file's content, if different, is kept as a version
        if (!sameContent) keepAsVersion(in, stored.updatedAt(), have, added);
        String detail = (cmp < 0 ? "the stored memory is newer (" + stored.updatedAt() + " > " + in.updatedAt() + ")"
                : "updated at the same time with different content; the stored memory is kept")
                + (sameContent ? "" : "; the file's content is kept as a version");
        return new Step(r, ImportOutcome.KEPT_NEWER, detail, null, false, false, renumber(added, next));
    }

    private static Step conflict(ExportRecord r, String detail) {
        return new Step(r, ImportOutcome.CONFLICT, detail, null, false, false, List.of());
    }

    /** A state's content as a version, unless the history (or this plan) already holds that content. */
    private static void keepAsVersion(Memory m, Instant replacedAt, List<MemoryVersion> have, List<MemoryVersion> added) {
        MemoryVersion v = new MemoryVersion(m.id(), 0, m.content(), m.tags(), m.importance(), replacedAt);
        boolean kept = have.stream().anyMatch(h -> sameContent(h, v)) || added.stream().anyMatch(a -> sameContent(a, v));
        if (!kept) added.add(v);
    }

    private static List<MemoryVersion> renumber(List<MemoryVersion> versions, int after) {
        List<MemoryVersion> out = new ArrayList<>();
        for (MemoryVersion v : versions) {
            out.add(new MemoryVersion(v.memoryId(), after + out.size() + 1, v.content(), v.tags(), v.importance(), v.replacedAt()));
        }
        return out;
    }

    private static boolean sameContent(Memory a, Memory b) {
        return a.content().equals(b.content()) && a.tags().equals(b.tags()) && a.importance() == b.importance();
    }

    private static boolean sameContent(MemoryVersion a, MemoryVersion b) {
        return a.content().equals(b.content()) && a.tags().equals(b.tags()) && a.importance() == b.importance();
    }

    /** What makes an edge the same edge in a store: its ends, type and label, not its creation time. */
    private record Link(String from, String to, dev.engram.memory.EdgeType type, String label) {
        static Link of(Edge e) {
            return new Link(e.fromId(), e.toId(), e.type(), e.label());
        }
    }

    /** Recalls bump access counts without changing a memory; they do not make two states differ. */
    private static Memory withoutAccess(Memory m) {
        return m.toBuilder().accessCount(0).lastAccessedAt(null).build();
    }

    /** Writes the plan; refuses (before writing anything) when it holds a conflict. */
    void apply(StoreTransaction tx) {
        List<Step> conflicts = steps.stream().filter(s -> s.outcome() == ImportOutcome.CONFLICT).toList();
        if (!conflicts.isEmpty()) {
            String more = conflicts.size() > 1 ? " (and " + (conflicts.size() - 1) + " more conflicts)" : "";
            throw new ConflictException("import: " + conflicts.get(0).detail() + more
                    + "; nothing was imported. Import into an empty store, or forget the existing memory;"
                    + " a dry run lists every conflict");
        }
        for (Step s : steps) {
            if (s.write() != null && s.insert()) tx.insert(s.write());
            else if (s.write() != null) tx.update(s.write());
            if (s.contentChanged()) tx.clearEmbedding(s.write().id()); // stale; the backfill embeds the new content
            s.versions().forEach(tx::addVersion);
            // the notes follow the state that wins: the file's replace theirs, else they only fill what the store lacks
            String id = s.record().memory().id();
            if (s.write() != null) MemoryNotes.put(tx, id, s.record().notes());
            else MemoryNotes.putAbsent(tx, id, s.record().notes());
            TagWords.putAbsent(tx, s.record().tagWords());
        }
        edges.forEach(tx::addEdge);
    }

    ImportResult result(boolean dryRun) {
        List<ImportResult.Line> lines = steps.stream().map(s -> new ImportResult.Line(s.record().memory().id(),
                s.record().memory().key(), s.record().memory().zone(), s.outcome(), s.detail())).toList();
        int versions = steps.stream().mapToInt(s -> s.versions().size()).sum();
        return new ImportResult(lines, versions, edges.size(), edgesDropped, dryRun);
    }
}
