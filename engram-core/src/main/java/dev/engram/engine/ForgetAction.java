package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/** Soft forget archives (reversible), hard forget deletes, restore brings an archived memory back. */
public enum ForgetAction {
    SOFT, HARD, RESTORE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ForgetAction parse(String field, String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not an action; send soft (archive), hard (delete) or restore");
        }
    }
}
