package dev.engram.bench;

import dev.engram.engine.Engine;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.Origin;
import dev.engram.rank.QualityPolicy;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Preloads a store the fast way: {@value #BATCH} memories per {@link MemoryStore#write} transaction,
 * then one {@link SearchIndex#catchUp()}. Going through {@code Engine.remember} instead would cost a
 * near-duplicate search and a commit per memory, which is what the timed phase measures, not setup.
 * Memories get seeded ids ({@code m_} + 10 base32), unique derived keys and creation times spread
 * over the past 180 days, so ranking sees a realistic age mix.
 */
final class BulkLoader {
    static final int BATCH = 1_000;
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private final Random random;
    private final Set<String> usedIds = new HashSet<>();

    BulkLoader(long seed) {
        this.random = new Random(seed);
    }

    /** What loading took: store writes and index catch-up separately, since they scale differently. */
    record LoadResult(int count, Duration write, Duration catchUp) {
        double perSecond() {
            double s = (write.toNanos() + catchUp.toNanos()) / 1e9;
            return s == 0 ? 0 : count / s;
        }
    }

    /**
     * Gives every memory without a vector of {@code engine}'s model one, as the server's backfill would, before
     * anything is timed; returns how many it embedded.
     */
    static int embedMissing(Engine engine) {
        int embedded = 0;
        for (int k = engine.embedMissing(256); k > 0; k = engine.embedMissing(256)) embedded += k;
        return embedded;
    }

    LoadResult load(MemoryStore store, SearchIndex index, Supplier<SyntheticMemory> source, int count, Instant now) {
        long t0 = System.nanoTime();
        for (int start = 0; start < count; start += BATCH) {
            List<Memory> batch = new ArrayList<>(BATCH);
            for (int i = start; i < Math.min(count, start + BATCH); i++) {
                batch.add(toMemory(source.get(), i, now));
            }
            store.write(tx -> {
                batch.forEach(tx::insert);
                return null;
            });
        }
        long t1 = System.nanoTime();
        index.catchUp();
        long t2 = System.nanoTime();
        return new LoadResult(count, Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1));
    }

    Memory toMemory(SyntheticMemory s, int ordinal, Instant now) {
        Instant created = now.minusSeconds(random.nextInt(180 * 24 * 3600));
        String suffix = "-" + Integer.toString(ordinal, 36);
        String slug = MemoryRules.slug(s.content());
        String key = slug.substring(0, Math.min(slug.length(), 80 - suffix.length())) + suffix;
        Memory m = Memory.builder().id(nextId()).key(key).zone(s.zone()).type(s.type()).content(s.content())
                .tags(s.tags()).file(s.file()).confidence(1.0).status(MemoryStatus.ACTIVE)
                .createdAt(created).updatedAt(created).origin(Origin.AGENT).build();
        return m.toBuilder().quality(QualityPolicy.score(m, 0, now).total()).build();
    }

    private String nextId() {
        while (true) {
            char[] c = new char[12];
            c[0] = 'm';
            c[1] = '_';
            for (int i = 2; i < 12; i++) c[i] = BASE32[random.nextInt(32)];
            String id = new String(c);
            if (usedIds.add(id)) return id;
        }
    }
}
