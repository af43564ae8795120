package dev.engram.memory;

import dev.engram.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What kind of knowledge a memory holds. The type decides how fast a memory fades: errors and
 * preferences are the lessons agents most regret losing (Memento's typed decay), so they never decay.
 */
public enum MemoryType {
    DECISION(90),
    PATTERN(120),
    ERROR(0),
    WARNING(180),
    PREFERENCE(0),
    PROCEDURE(120),
    FACT(60),
    RELATION(60),
    ENTITY(0);

    private final int halfLifeDays;
    /** Asked for every recall candidate: built once. */
    private final String wireName;

    MemoryType(int halfLifeDays) {
        this.halfLifeDays = halfLifeDays;
        this.wireName = name().toLowerCase(Locale.ROOT);
    }

    /** Days after which recency weight halves; 0 means this type never decays. */
    public int halfLifeDays() {
        return halfLifeDays;
    }

    public boolean decays() {
        return halfLifeDays > 0;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * The exact wire name only. Other words for a type (toon-memory's {@code bug}, {@code knowledge} …)
     * are profile vocabulary: a profile maps them before calling this (engram-mcp's {@code TypeAliases}).
     */
    public static MemoryType parse(String field, String value) {
        for (MemoryType t : values()) {
            if (t.wireName().equals(value)) {
                return t;
            }
        }
        throw new InvalidArgumentException(field, MemoryRules.shown(value) + " is not a known type; send one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(MemoryType::wireName).collect(Collectors.joining(", "));
    }
}
