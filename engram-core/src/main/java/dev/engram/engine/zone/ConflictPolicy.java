package dev.engram.engine.zone;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import java.util.Locale;

/** What copying into a zone does with a name the target holds already (brain-tools' merge_zones choices). */
public enum ConflictPolicy {
    /** Leave the target's entity; report the name as skipped. */
    SKIP,
    /** Replace the target's type, interval and observations with the source's; its relations stay. */
    OVERWRITE,
    /** Copy under {@code <name>_from_<source zone>} (brain-tools' rename rule). */
    RENAME;

    public static ConflictPolicy parse(String field, String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, MemoryRules.shown(value) + " is not a conflict policy; send skip, overwrite or rename");
        }
    }

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
