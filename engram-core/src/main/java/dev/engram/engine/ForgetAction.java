package dev.engram.engine;

import dev.engram.memory.MemoryRules;
import java.util.Locale;

/** Soft forget archives (reversible), hard forget deletes, restore brings an archived memory back. */
public enum ForgetAction {
    SOFT, HARD, RESTORE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ForgetAction parse(String field, String value) {
        return MemoryRules.choice(field, value, ForgetAction.class, ForgetAction::wireName, "an action; send soft (archive), hard (delete) or restore");
    }
}
