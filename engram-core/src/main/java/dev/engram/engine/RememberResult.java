package dev.engram.engine;

import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.rank.QualityScore;
import java.util.List;

/**
 * What remember did. {@code nearDuplicate} is set when another memory of the same zone and type
 * says nearly the same thing (word-set Jaccard at or above {@link Engine#NEAR_DUPLICATE_JACCARD}, or
 * embedding cosine at or above {@link Engine#NEAR_DUPLICATE_COSINE}). {@code conflicts} are the existing
 * memories (at most {@link Engine#MAX_WRITE_CONFLICTS}, closest first) the new content may contradict: the write
 * went through all the same, and nothing else changed; the caller is told so it can check.
 */
public record RememberResult(Memory memory, Outcome outcome, List<String> inferredTags,
                             NearDuplicate nearDuplicate, QualityScore quality, List<String> linked,
                             List<Conflict> conflicts) {
    public enum Outcome { CREATED, MERGED, REPLACED }

    /** {@code basis} is "words" (Jaccard of word sets) or "meaning" (cosine of embeddings). */
    public record NearDuplicate(String id, String key, double similarity, String basis) {
    }

    /**
     * An existing memory the new content may contradict. {@code basis}: {@code values} (a number, date or version
     * differs for the same subject), {@code negation} (opposite polarity), both from
     * {@link dev.engram.engine.lifecycle.ContradictionCheck}; or {@code overlap} (toon's rule: the content overlaps a
     * warning by word-set Jaccard ≥ {@link Engine#WARNING_OVERLAP}, or a critical/high memory by ≥
     * {@link Engine#STRONG_OVERLAP}). {@code similarity} is that word-set Jaccard over key, content and tags;
     * {@code content} the existing memory's content; {@code detail} a phrase saying what differs.
     */
    public record Conflict(String id, String key, String content, MemoryType type, Importance importance, double similarity,
                           String basis, String detail) {
    }

    public RememberResult {
        inferredTags = List.copyOf(inferredTags);
        linked = List.copyOf(linked);
        conflicts = List.copyOf(conflicts);
    }
}
