package dev.engram.engine;

import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryRules;
import java.util.Objects;

/** A link named on remember: {@code type:target} or just {@code target} (type related). */
public record LinkSpec(EdgeType type, String target) {
    public LinkSpec {
        Objects.requireNonNull(type, "type");
        target = MemoryRules.reference("links", target);
    }

    /** Parses {@code caused_by:redis-timeout} or {@code redis-timeout}. */
    public static LinkSpec parse(String text) {
        String t = text == null ? "" : text.strip();
        int colon = t.indexOf(':');
        if (colon > 0) {
            return new LinkSpec(EdgeType.parse("links", t.substring(0, colon)), t.substring(colon + 1));
        }
        return new LinkSpec(EdgeType.RELATED, t);
    }
}
