package dev.engram.mcp.profile;

import dev.engram.memory.MemoryType;
import java.util.Map;
import java.util.Objects;

/**
 * Words a profile accepts for a memory type besides the engine's wire names ({@link MemoryType#parse}
 * takes only those). Profile vocabulary, kept out of the core model: each profile parses types through
 * the table it chooses, explicitly. Immutable and thread-safe.
 */
public final class TypeAliases {
    /** The wire names alone. */
    public static final TypeAliases NONE = new TypeAliases(Map.of());

    /**
     * toon-memory's categories and the like. The native profile, the CLI and JSONL import have accepted
     * them since before profiles existed, so they keep doing so (pinned by tests); an unknown word is
     * still refused with the wire names to send.
     */
    public static final TypeAliases TOON_MEMORY = new TypeAliases(Map.of(
            "bug", MemoryType.ERROR, "knowledge", MemoryType.FACT, "note", MemoryType.FACT,
            "observation", MemoryType.FACT, "howto", MemoryType.PROCEDURE, "rule", MemoryType.WARNING,
            "convention", MemoryType.PATTERN));

    private final Map<String, MemoryType> aliases;

    public TypeAliases(Map<String, MemoryType> aliases) {
        this.aliases = Map.copyOf(Objects.requireNonNull(aliases, "aliases"));
        for (MemoryType t : MemoryType.values()) {
            // a wire name always means itself: an alias may not redefine it
            if (this.aliases.containsKey(t.wireName())) {
                throw new IllegalArgumentException("'" + t.wireName() + "' is a wire name, not an alias");
            }
        }
    }

    /** A wire name or one of the aliases; anything else is refused as {@link MemoryType#parse} refuses it. */
    public MemoryType parse(String field, String value) {
        MemoryType alias = value == null ? null : aliases.get(value);
        return alias != null ? alias : MemoryType.parse(field, value);
    }

    public Map<String, MemoryType> aliases() {
        return aliases;
    }
}
