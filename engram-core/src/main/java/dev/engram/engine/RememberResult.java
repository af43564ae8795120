package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.rank.QualityScore;
import java.util.List;

/**
 * What remember did. {@code nearDuplicate} is set when another memory of the same zone and type
 * says nearly the same thing (word-set Jaccard at or above {@link Engine#NEAR_DUPLICATE_JACCARD}, or
 * embedding cosine at or above {@link Engine#NEAR_DUPLICATE_COSINE}).
 */
public record RememberResult(Memory memory, Outcome outcome, List<String> inferredTags,
                             NearDuplicate nearDuplicate, QualityScore quality, List<String> linked) {
    public enum Outcome { CREATED, MERGED, REPLACED }

    /** {@code basis} is "words" (Jaccard of word sets) or "meaning" (cosine of embeddings). */
    public record NearDuplicate(String id, String key, double similarity, String basis) {
    }

    public RememberResult {
        inferredTags = List.copyOf(inferredTags);
        linked = List.copyOf(linked);
    }
}
