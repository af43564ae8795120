package dev.engram.rank;

import dev.engram.engine.lifecycle.LifecyclePolicy;
import dev.engram.memory.Memory;
import dev.engram.memory.Tier;
import java.time.Instant;

/**
 * The native profiles' view of the tier: {@link LifecyclePolicy#DEFAULT}'s rule (hot when used within a
 * week or pinned, cold when untouched for 60 days, warm between). Kept for its callers; the rule itself
 * lives in {@link dev.engram.engine.lifecycle.TierRules.ByUse}.
 */
public final class TierPolicy {
    private TierPolicy() {
    }

    public static Tier tierOf(Memory m, Instant now) {
        return LifecyclePolicy.DEFAULT.tier(m, now);
    }
}
