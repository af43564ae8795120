package dev.engram.engine.lifecycle;

import dev.engram.analysis.Words;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.rank.NumericImportance;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Merging duplicates, one rule for every caller (the {@link MergeStep} of a maintenance cycle, toon's
 * {@code memory_consolidate} identical and similar modes):
 * <ul>
 *   <li><b>which one stays</b> ({@link #KEEP_ORDER}): the longer content (it says the most), then the more recalled,
 *       then the more important, then the older (it has the history);</li>
 *   <li><b>what moves</b>: the others' tags join the kept one's (up to {@link MemoryRules#MAX_TAGS}), and each of
 *       their links (other than an episode's {@code follows}) is copied to the kept one;</li>
 *   <li><b>what happens to the others</b>: archived, with {@code supersededBy} the kept one and a {@code supersedes}
 *       edge from it; they keep their own content, tags, links and vector, so {@code forget action=restore} brings
 *       one back whole. Nothing is deleted.</li>
 * </ul>
 * One transaction per merge; a memory that changed status since it was planned is skipped.
 */
public final class DuplicateMerge {
    /** Which of two duplicates stays: the first in this order. */
    public static final Comparator<Memory> KEEP_ORDER = Comparator
            .comparingInt((Memory m) -> m.content().length()).reversed()
            .thenComparing(Comparator.comparingLong(Memory::accessCount).reversed())
            .thenComparing(Comparator.comparingDouble(NumericImportance::of).reversed())
            .thenComparing(Memory::createdAt);

    /**
     * How a profile's consolidate tool finds duplicates among a zone's active memories, every pair compared:
     * {@code IDENTICAL}: the same type and the same {@link #normalized} content; {@code WORDS}: {@link #lexicalWords}
     * Jaccard above a threshold, whatever the type (toon's similar mode).
     */
    public enum Mode { IDENTICAL, WORDS }

    /** One merge: {@code dropped} goes into {@code kept}; {@code basis} is hash, words or meaning. */
    public record Merge(Memory kept, Memory dropped, double similarity, String basis) {
    }

    /** How similar two memories are (0..1), or a negative number when they are not duplicates. */
    @FunctionalInterface
    public interface Likeness {
        double of(Memory a, Memory b);
    }

    private DuplicateMerge() {
    }

    /** Content after normalisation (trimmed, whitespace collapsed, lowercase): equal means a content-hash duplicate. */
    public static String normalized(String content) {
        return content.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** The words toon compares entries by: key (dashes as spaces), content and tags, lowercase, longer than one letter. */
    public static Set<String> lexicalWords(Memory m) {
        return lexicalWords(m.key(), m.content(), m.tags());
    }

    /** {@link #lexicalWords(Memory)} of a memory not written yet ({@code key} may be null). */
    public static Set<String> lexicalWords(String key, String content, List<String> tags) {
        String k = key == null ? "" : key.replace('-', ' ').replace('_', ' ');
        String text = k + " " + content + " " + String.join(" ", tags);
        Set<String> words = new HashSet<>();
        for (String w : Words.runs(text.toLowerCase(Locale.ROOT))) {
            if (w.length() > 1) words.add(w);
        }
        return words;
    }

    /** Word-set Jaccard; 0 when both are empty. */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) return 0;
        int common = 0;
        for (String w : a) if (b.contains(w)) common++;
        return (double) common / (a.size() + b.size() - common);
    }

    /**
     * The merges among {@code memories}, in their order: each memory still standing is compared with its
     * {@code candidates} (the rest of the list, or its nearest neighbours) that still stand; a duplicate pair drops
     * the one {@link #KEEP_ORDER} puts second, and a kept memory goes on absorbing. Plans only; writes nothing.
     */
    public static List<Merge> plan(List<Memory> memories, Function<Memory, List<Memory>> candidates, Likeness likeness,
                                   String basis, int max) {
        Set<String> gone = new HashSet<>();
        Set<String> compared = new HashSet<>();
        List<Merge> out = new java.util.ArrayList<>();
        for (Memory a : memories) {
            if (out.size() >= max) break;
            if (gone.contains(a.id())) continue;
            for (Memory b : candidates.apply(a)) {
                if (out.size() >= max) break;
                if (b.id().equals(a.id()) || gone.contains(b.id())) continue;
                if (!compared.add(a.id().compareTo(b.id()) < 0 ? a.id() + " " + b.id() : b.id() + " " + a.id())) continue;
                double sim = likeness.of(a, b);
                if (sim < 0) continue;
                boolean keepA = KEEP_ORDER.compare(a, b) <= 0;
                Memory keep = keepA ? a : b, drop = keepA ? b : a;
                out.add(new Merge(keep, drop, Math.round(sim * 1000) / 1000.0, basis));
                gone.add(drop.id());
                if (drop == a) break;
            }
        }
        return out;
    }

    /** The likeness of a {@link Mode}; {@code above} is the WORDS threshold (unused for IDENTICAL). */
    public static Likeness likeness(Mode mode, double above) {
        if (mode == Mode.IDENTICAL) {
            java.util.Map<String, String> norm = new java.util.HashMap<>();
            return (a, b) -> a.type() == b.type() && norm.computeIfAbsent(a.id(), k -> normalized(a.content()))
                    .equals(norm.computeIfAbsent(b.id(), k -> normalized(b.content()))) ? 1.0 : -1;
        }
        java.util.Map<String, Set<String>> words = new java.util.HashMap<>();
        return (a, b) -> {
            double j = jaccard(words.computeIfAbsent(a.id(), k -> lexicalWords(a)), words.computeIfAbsent(b.id(), k -> lexicalWords(b)));
            return j > above ? j : -1;
        };
    }

    /** The rest of the list after {@code m}: every pair once, for the small lists a profile's tool merges. */
    public static Function<Memory, List<Memory>> rest(List<Memory> memories) {
        java.util.Map<String, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < memories.size(); i++) at.put(memories.get(i).id(), i);
        return m -> memories.subList(at.get(m.id()) + 1, memories.size());
    }

    /**
     * Writes one merge, re-reading both ends inside the transaction; returns the kept memory as stored, or empty when
     * either end is no longer active (merged meanwhile, forgotten) and nothing was written.
     */
    public static Optional<Memory> apply(MemoryStore store, Merge merge, Instant now) {
        return store.write(tx -> {
            Memory keep = tx.get(merge.kept().id()).orElse(null);
            Memory drop = tx.get(merge.dropped().id()).orElse(null);
            if (keep == null || drop == null || keep.status() != MemoryStatus.ACTIVE || drop.status() != MemoryStatus.ACTIVE) {
                return Optional.<Memory>empty();
            }
            return Optional.of(absorb(tx, keep, drop, now));
        });
    }

    /**
     * {@code keep} takes {@code drop}'s tags and links; {@code drop} is archived, superseded by {@code keep}, with a
     * {@code supersedes} edge from it. Returns {@code keep} as now stored. Both must be current in {@code tx}.
     */
    static Memory absorb(StoreTransaction tx, Memory keep, Memory drop, Instant now) {
        List<String> tags = MemoryRules.union(keep.tags(), drop.tags());
        Memory kept = keep;
        if (!tags.equals(keep.tags())) {
            kept = keep.toBuilder().tags(tags).updatedAt(now).build();
            tx.update(kept);
        }
        for (Edge e : tx.edges(drop.id())) {
            String other = e.other(drop.id());
            if (other.equals(keep.id()) || e.type() == EdgeType.FOLLOWS) continue;
            tx.addEdge(e.fromId().equals(drop.id())
                    ? new Edge(keep.id(), other, e.type(), e.label(), e.createdAt())
                    : new Edge(other, keep.id(), e.type(), e.label(), e.createdAt()));
        }
        tx.update(drop.toBuilder().status(MemoryStatus.ARCHIVED).supersededAt(now).supersededBy(keep.id())
                .updatedAt(now).build());
        tx.addEdge(new Edge(keep.id(), drop.id(), EdgeType.SUPERSEDES, now));
        return kept;
    }
}
