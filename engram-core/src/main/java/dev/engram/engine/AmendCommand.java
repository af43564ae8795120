package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Importance;
import dev.engram.memory.MemoryRules;
import java.util.List;

/** Change content, tags or importance in place; id and edges stay. Null leaves a field as it is. */
public record AmendCommand(String ref, String zone, String content, List<String> tags, Importance importance) {
    public AmendCommand {
        ref = MemoryRules.reference("key", ref);
        zone = MemoryRules.zone("zone", zone);
        content = content == null ? null : MemoryRules.content("content", content);
        tags = tags == null ? null : MemoryRules.tags("tags", tags);
        if (content == null && tags == null && importance == null) {
            throw new InvalidArgumentException("content", "tags or importance: send at least one of them to amend");
        }
    }
}
