package dev.engram.memory;

import java.util.Locale;

/** Temperature of a memory, from how recently and often it is used (Memento's hot/warm/cold). */
public enum Tier {
    HOT, WARM, COLD;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
