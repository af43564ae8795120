package dev.engram.memory;

import java.util.Locale;

/**
 * Temperature of a memory, from how recently and often it is used (Memento's ttl_tier). Computed when
 * read by the policy's tier rules ({@link dev.engram.engine.lifecycle.TierRules}): the native rule
 * answers hot, warm or cold; Memento's also short (working memory with an expiry) and permanent.
 */
public enum Tier {
    SHORT, HOT, WARM, COLD, PERMANENT;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
