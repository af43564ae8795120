package dev.engram.rank;

import dev.engram.memory.Memory;
import dev.engram.memory.Tier;
import java.time.Duration;
import java.time.Instant;

/** Hot: used within a week or pinned. Cold: untouched for 60 days. Warm: everything between. */
public final class TierPolicy {
    private TierPolicy() {
    }

    public static Tier tierOf(Memory m, Instant now) {
        Instant lastTouch = m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(m.updatedAt())
                ? m.lastAccessedAt() : m.updatedAt();
        long idleDays = Duration.between(lastTouch, now).toDays();
        if (m.pinned() || idleDays < 7) {
            return Tier.HOT;
        }
        return idleDays >= 60 ? Tier.COLD : Tier.WARM;
    }
}
