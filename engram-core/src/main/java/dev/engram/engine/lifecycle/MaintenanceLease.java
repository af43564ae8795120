package dev.engram.engine.lifecycle;

import dev.engram.spi.MemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The cluster-wide right to run a maintenance cycle, so that of several processes sharing a store only
 * one runs it at a time. Kept in the store mark {@link #MARK} as {@code owner|expiry-millis}; taking it
 * reads the mark and writes it inside one {@link MemoryStore#write}, and writes are serialized across
 * processes, so that is a compare-and-set. A lease that was not released (its holder was killed) expires
 * after {@link #DURATION}. The mark {@link #LAST_RUN} (epoch millis of the last finished cycle) tells the
 * schedulers of every process whether a cycle is due.
 */
public final class MaintenanceLease {
    public static final String MARK = "lifecycle.lease", LAST_RUN = "lifecycle.last-run";
    /** Far longer than a cycle takes; short enough that a killed holder blocks the schedule for minutes only. */
    static final Duration DURATION = Duration.ofMinutes(15);

    private MaintenanceLease() {
    }

    /** Who holds the lease at {@code now}, if anyone ({@code owner}, until when). */
    record Holder(String owner, Instant until) {
    }

    static Optional<Holder> holder(Optional<String> mark, Instant now) {
        if (mark.isEmpty()) return Optional.empty();
        String v = mark.get();
        int bar = v.lastIndexOf('|');
        if (bar < 0) return Optional.empty();
        try {
            Instant until = Instant.ofEpochMilli(Long.parseLong(v.substring(bar + 1)));
            return until.isAfter(now) ? Optional.of(new Holder(v.substring(0, bar), until)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    static Optional<Instant> lastRun(Optional<String> mark) {
        try {
            return mark.map(v -> Instant.ofEpochMilli(Long.parseLong(v)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether a cycle is due at {@code now} for a schedule of {@code interval}: none ran within it. */
    static boolean due(Optional<String> lastRunMark, Instant now, Duration interval) {
        return lastRun(lastRunMark).map(t -> !t.plus(interval).isAfter(now)).orElse(true);
    }

    /**
     * Takes the lease for {@code owner} if nobody else holds it (and, when {@code interval} is not null, if
     * a cycle is due); returns the other holder when it is taken, or a holder named {@code not-due}.
     */
    static Optional<Holder> acquire(MemoryStore store, String owner, Instant now, Duration interval) {
        return store.write(tx -> {
            Optional<Holder> other = holder(tx.mark(MARK), now).filter(h -> !h.owner().equals(owner));
            if (other.isPresent()) return other;
            if (interval != null && !due(tx.mark(LAST_RUN), now, interval)) {
                return Optional.of(new Holder("not-due", lastRun(tx.mark(LAST_RUN)).orElse(now).plus(interval)));
            }
            tx.putMark(MARK, owner + "|" + now.plus(DURATION).toEpochMilli());
            return Optional.empty();
        });
    }

    /** Gives the lease up (if {@code owner} still holds it) and records the cycle's end. */
    static void release(MemoryStore store, String owner, Instant finished) {
        store.write(tx -> {
            if (tx.mark(MARK).map(v -> v.startsWith(owner + "|")).orElse(false)) {
                tx.putMark(MARK, owner + "|0");
            }
            tx.putMark(LAST_RUN, Long.toString(finished.toEpochMilli()));
            return null;
        });
    }
}
