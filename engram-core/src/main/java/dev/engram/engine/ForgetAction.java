package dev.engram.engine;

import dev.engram.memory.MemoryRules;
import java.util.Locale;

/**
 * Soft forget archives (reversible), hard forget deletes (restorable for a while), restore brings an
 * archived or hard-deleted memory back. Purge erases at once, tombstone included, with no undo: it is
 * for people (`engram forget --purge`), and the agent-facing tools do not offer it.
 */
public enum ForgetAction {
    SOFT, HARD, RESTORE, PURGE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ForgetAction parse(String field, String value) {
        return MemoryRules.choice(field, value, ForgetAction.class, ForgetAction::wireName, "an action; send soft (archive), hard (delete) or restore");
    }
}
