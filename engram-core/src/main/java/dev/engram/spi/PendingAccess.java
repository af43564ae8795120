package dev.engram.spi;

import dev.engram.memory.Memory;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access bumps ({@link MemoryStore#recordAccess}) a store has not written yet. A recall used to pay
 * its own write transaction for them: an fsync under SQLite's synchronous=FULL (the largest part of
 * a recall after the pinned scan at 10k, docs/benchmarks.md), on PostgreSQL a transaction under the
 * cluster's write lock per recall (issue 18: a second replica lowered throughput). They collect here
 * and reach the record with the next write transaction that touches their rows or the store's
 * periodic flush, whichever comes first. Reads of the same store add them to what the record says
 * ({@link #overlay}), so this process never sees a stale count. Thread-safe.
 */
public final class PendingAccess {
    /** {@code count} recalls not yet written; {@code last} is the time of the latest one. */
    public record Bump(long count, Instant last) {
        /** Both bumps together: their counts added, the later of their last reads (as a store writes them, in any order). */
        public Bump then(Bump later) {
            return new Bump(count + later.count, later.last.isBefore(last) ? last : later.last);
        }

        /** {@code m} as it is once this bump is written (each store's access UPDATE does the same in SQL). */
        public Memory applyTo(Memory m) {
            return m.accessed(count, last);
        }
    }

    private final Map<String, Bump> pending = new ConcurrentHashMap<>();

    public void add(Collection<String> ids, Instant at) {
        Bump one = new Bump(1, at);
        for (String id : ids) pending.merge(id, one, Bump::then);
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Takes every pending bump; the caller writes them or {@link #restore}s them. */
    public Map<String, Bump> drain() {
        Map<String, Bump> out = new HashMap<>();
        for (String id : pending.keySet()) {
            Bump b = pending.remove(id);
            if (b != null) out.put(id, b);
        }
        return out;
    }

    /** Takes the pending bump of one memory, or null; the caller writes it or {@link #restore}s it. */
    public Bump take(String id) {
        return pending.remove(id);
    }

    /** Puts back bumps whose write failed, before any that arrived since (they are later). */
    public void restore(Map<String, Bump> drained) {
        drained.forEach((id, b) -> pending.merge(id, b, (newer, older) -> older.then(newer)));
    }

    /** {@code m} as it will be once its pending bumps are written. */
    public Memory overlay(Memory m) {
        Bump b = pending.get(m.id());
        return b == null ? m : b.applyTo(m);
    }

    public List<Memory> overlay(List<Memory> ms) {
        if (pending.isEmpty()) return ms;
        return ms.stream().map(this::overlay).toList();
    }
}
