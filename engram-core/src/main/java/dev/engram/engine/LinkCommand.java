package dev.engram.engine;

import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryRules;

/** Add ({@code remove == false}) or remove the edge {@code from --type--> to}. */
public record LinkCommand(String from, String to, EdgeType type, String zone, boolean remove) {
    public LinkCommand {
        from = MemoryRules.reference("from", from);
        to = MemoryRules.reference("to", to);
        type = type == null ? EdgeType.RELATED : type;
        zone = MemoryRules.zone("zone", zone);
    }
}
