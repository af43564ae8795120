package dev.engram.spi;

import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Memories for the contract suites: valid ids and every optional field filled or left null on purpose. */
public final class MemoryFixtures {
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private MemoryFixtures() {
    }

    /** A well-formed id (m_ + 10 chars of [a-z2-7]) that is unique per {@code n}. */
    public static String id(long n) {
        char[] c = new char[10];
        long v = n;
        for (int i = 9; i >= 0; i--) {
            c[i] = BASE32[(int) (v & 31)];
            v >>>= 5;
        }
        return "m_" + new String(c);
    }

    /** A minimal active fact created now. */
    public static Memory.Builder minimal(Clock clock, long n, String zone, String content) {
        Instant now = clock.instant();
        return Memory.builder().id(id(n)).key("key-" + n).zone(zone).content(content)
                .createdAt(now).updatedAt(now);
    }

    /** A memory with every optional field set, so a store that drops a column fails the round trip. */
    public static Memory full(Clock clock, long n, String zone) {
        Instant now = clock.instant();
        return Memory.builder().id(id(n)).key("full.key_" + n).name("Full Name " + n + ": 한국어 \"quoted\"").zone(zone)
                .type(MemoryType.DECISION).entityType("Design Decision")
                .content("Use WAL mode; \"quotes\", back\\slash, 한국어 and emoji \uD83D\uDE00 survive.")
                .tags(List.of("db", "sqlite", "tag\"with'quote")).file("src/main/Store.java").pathScope("src/main/")
                .importance(Importance.HIGH).quality(0.75).confidence(0.5).status(MemoryStatus.DRAFT)
                .createdAt(now.minusSeconds(3600)).updatedAt(now).lastAccessedAt(now.minusSeconds(60))
                .accessCount(7).expiresAt(now.plusSeconds(86_400)).occurredAt(now.minusSeconds(86_400 * 400)).reviewIntervalDays(14)
                .lastVerifiedAt(now.minusSeconds(120)).verifyCount(2).relevance(2.5).origin(Origin.HUMAN)
                .session("sess-1").branch("feature/x").pinPriority(3)
                .supersededAt(now.minusSeconds(10)).supersededBy(id(n + 1_000_000)).lastDecayAt(now.minusSeconds(30)).build();
    }
}
