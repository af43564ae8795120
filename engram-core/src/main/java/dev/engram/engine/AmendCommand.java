package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Importance;
import dev.engram.memory.MemoryRules;
import java.util.List;

/**
 * Change content, tags, importance or relevance (the caller-set weight) in place; id and edges stay.
 * Null leaves a field as it is.
 */
public record AmendCommand(String ref, String zone, String content, List<String> tags, Importance importance,
                           Double relevance) {
    public AmendCommand {
        ref = MemoryRules.reference("key", ref);
        zone = MemoryRules.zone("zone", zone);
        content = content == null ? null : MemoryRules.content("content", content);
        tags = tags == null ? null : MemoryRules.tags("tags", tags);
        if (relevance != null && !(relevance >= dev.engram.memory.Memory.MIN_RELEVANCE
                && relevance <= dev.engram.memory.Memory.MAX_RELEVANCE)) {
            throw new InvalidArgumentException("relevance", "must be " + dev.engram.memory.Memory.MIN_RELEVANCE
                    + ".." + dev.engram.memory.Memory.MAX_RELEVANCE + ", got " + relevance);
        }
        if (content == null && tags == null && importance == null && relevance == null) {
            throw new InvalidArgumentException("content", "tags or importance: send at least one of them to amend");
        }
    }

    public AmendCommand(String ref, String zone, String content, List<String> tags, Importance importance) {
        this(ref, zone, content, tags, importance, null);
    }
}
