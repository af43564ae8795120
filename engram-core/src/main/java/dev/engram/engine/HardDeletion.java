package dev.engram.engine;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.Tombstone;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hard forget with an undo window. Deleting moves the memory, with its edges, versions and vector,
 * into a tombstone and frees its key at once; {@code restore} brings it back until
 * {@link #RESTORE_WINDOW} has passed. Tombstones older than that are purged at the next hard forget;
 * until then they are already treated as gone.
 */
public final class HardDeletion {
    /**
     * Long enough to notice a mistaken delete after a weekend, short enough that a deletion really
     * ends: after it, nothing of the memory is left in the store.
     */
    static final Duration RESTORE_WINDOW = Duration.ofDays(7);

    private HardDeletion() {
    }

    /**
     * Deletes {@code m} into a tombstone; returns until when it can be restored. Public for the entity
     * graph, whose deletes are as undoable as a native hard forget.
     */
    public static Instant delete(StoreTransaction tx, Memory m, Instant now) {
        Tombstone t = new Tombstone(m, tx.edges(m.id()), tx.versions(m.id()), tx.embedding(m.id()).orElse(null), now);
        tx.delete(m.id());
        tx.purgeTombstones(now.minus(RESTORE_WINDOW));
        tx.putTombstone(t);
        return now.plus(RESTORE_WINDOW);
    }

    /**
     * Erases a memory now, with no undo: the live memory if the reference names one (its edges,
     * versions and vector go with it) and its tombstone if it was hard-deleted before. For a secret
     * stored by mistake, which must not wait out the restore window.
     */
    static ForgetResult purge(StoreTransaction tx, String ref, String zone) {
        if (MemoryRules.isId(ref) && (tx.get(ref).isPresent() || tx.tombstone(ref).isPresent())) {
            Optional<Memory> live = tx.get(ref);
            Tombstone t = tx.tombstone(ref).orElse(null);
            tx.removeTombstone(ref);
            if (live.isPresent()) {
                tx.delete(ref);
                return new ForgetResult(live.get(), ForgetAction.PURGE, live.get().status(), null, "");
            }
            return new ForgetResult(t.memory(), ForgetAction.PURGE, null, null, "erased a hard-deleted memory");
        }
        // by key, a live memory and deleted ones may share it: erasing only one of them could leave the
        // very text the user wants gone restorable, so an ambiguous key is refused with every id
        Optional<Memory> live = tx.getByKey(zone, ref);
        List<Tombstone> deleted = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Optional<Tombstone> t = tx.tombstoneByKey(zone, ref); t.isPresent(); t = tx.tombstoneByKey(zone, ref)) {
            if (seen.contains(t.get().memory().id())) break; // a store that returns a removed one again must not loop
            seen.add(t.get().memory().id());
            deleted.add(t.get());
            tx.removeTombstone(t.get().memory().id());
        }
        if (live.isPresent() && !deleted.isEmpty()) {
            throw new ConflictException("key '" + ref + "' names a live memory (" + live.get().id() + ") and "
                    + deleted.size() + " hard-deleted one(s) (" + String.join(", ", seen) + "); purge each by its id");
        }
        if (live.isPresent()) {
            tx.delete(live.get().id());
            return new ForgetResult(live.get(), ForgetAction.PURGE, live.get().status(), null, "");
        }
        if (deleted.isEmpty()) throw NotFoundException.memory(ref, zone);
        return new ForgetResult(deleted.get(0).memory(), ForgetAction.PURGE, null, null, "erased " + deleted.size()
                + " hard-deleted memor" + (deleted.size() == 1 ? "y" : "ies") + " (" + String.join(", ", seen) + ")");
    }

    /** The tombstone the caller's reference names: an id (any zone) first, else a key within the zone. */
    static Optional<Tombstone> find(StoreTransaction tx, String ref, String zone) {
        return MemoryStore.resolve(ref, tx::tombstone, key -> tx.tombstoneByKey(zone, key));
    }

    /**
     * Brings a hard-deleted memory back as it was, with every edge whose other end still exists. If
     * its key was taken since, it comes back under {@code <key>-restored} (both memories are kept,
     * nothing is overwritten); the result's note says so.
     */
    static ForgetResult restore(StoreTransaction tx, Tombstone t, Instant now) {
        Memory m = t.memory();
        if (!now.isBefore(t.deletedAt().plus(RESTORE_WINDOW))) {
            throw new NotFoundException("memory '" + m.key() + "' (" + m.id() + ") was deleted at " + t.deletedAt()
                    + ", more than " + RESTORE_WINDOW.toDays() + " days ago: it is gone for good");
        }
        if (tx.get(m.id()).isPresent()) {
            throw new ConflictException("memory id " + m.id() + " is in use again (an import brought it back);"
                    + " its deleted state cannot be restored over it");
        }
        StringBuilder note = new StringBuilder();
        String key = m.key();
        if (tx.getByKey(m.zone(), key).isPresent()) {
            key = freeKey(tx, m.zone(), key);
            note.append("key '").append(m.key()).append("' now belongs to ")
                    .append(tx.getByKey(m.zone(), m.key()).orElseThrow().id()).append(", restored as '").append(key).append("'");
        }
        Memory restored = m.toBuilder().key(key).build();
        tx.insert(restored);
        t.versions().forEach(tx::addVersion);
        if (t.embedding() != null) tx.putEmbedding(m.id(), t.embedding());
        int dropped = 0;
        int waiting = 0;
        for (Edge e : t.edges()) {
            String other = e.other(m.id());
            if (tx.get(other).isPresent()) {
                tx.addEdge(e);
                continue;
            }
            // the other end is deleted too: hand the link to its tombstone, so restoring it brings the link back
            Optional<Tombstone> deletedToo = tx.tombstone(other).filter(o -> now.isBefore(o.deletedAt().plus(RESTORE_WINDOW)));
            if (deletedToo.isPresent()) {
                Tombstone o = deletedToo.get();
                if (!o.edges().contains(e)) {
                    List<Edge> edges = new ArrayList<>(o.edges());
                    edges.add(e);
                    tx.putTombstone(new Tombstone(o.memory(), edges, o.versions(), o.embedding(), o.deletedAt()));
                }
                waiting++;
            } else {
                dropped++;
            }
        }
        if (dropped > 0) {
            if (note.length() > 0) note.append("; ");
            note.append(dropped).append(dropped == 1 ? " link was" : " links were")
                    .append(" not restored: the memory at the other end is gone");
        }
        if (waiting > 0) {
            if (note.length() > 0) note.append("; ");
            note.append(waiting).append(waiting == 1 ? " link comes" : " links come")
                    .append(" back when the deleted memory at the other end is restored");
        }
        tx.removeTombstone(m.id());
        return new ForgetResult(restored, ForgetAction.RESTORE, null, null, note.toString());
    }

    private static String freeKey(StoreTransaction tx, String zone, String key) {
        String base = key.length() > 68 ? key.substring(0, 68) : key; // keys are at most 80 characters
        String candidate = base + "-restored";
        for (int n = 2; tx.getByKey(zone, candidate).isPresent(); n++) candidate = base + "-restored-" + n;
        return candidate;
    }
}
