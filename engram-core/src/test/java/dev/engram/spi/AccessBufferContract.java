package dev.engram.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.memory.Memory;
import dev.engram.testing.MutableClock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * For a store that buffers {@link MemoryStore#recordAccess} in a {@link PendingAccess}: what the record holds, read
 * past the store as another process would, against what the store's own reads show, through writes that touch rows
 * with pending bumps, a write that fails, and close. An implementation supplies a store whose periodic flush does not
 * run during a test (close still flushes), so nothing is written between a bump and the check of the record.
 */
public abstract class AccessBufferContract {
    protected final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    protected MemoryStore store;

    /** A store on this test's record that flushes access counts only when told to, or on close. */
    protected abstract MemoryStore openBuffered();

    /** The access count the record holds for {@code id}, read on a connection of its own. */
    protected abstract long countInRecord(String id) throws Exception;

    @BeforeEach
    void openStore() {
        store = openBuffered();
    }

    @AfterEach
    void closeStore() {
        if (store != null) store.close();
    }

    protected Memory insert(long n) {
        Memory m = MemoryFixtures.minimal(clock, n, "work", "memory " + n).build();
        store.write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    @Test
    void aRecallDoesNotWriteAndAWriteTakesAlongOnlyTheBumpsOfTheRowsItTouches() throws Exception {
        Memory a = insert(1);
        Memory b = insert(2);
        store.recordAccess(List.of(a.id(), b.id()), clock.instant());
        store.recordAccess(List.of(a.id()), clock.instant().plusSeconds(1));
        assertEquals(0, countInRecord(a.id()), "buffered: no transaction per recall");
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount(), "this store's reads include the buffer");
        assertEquals(List.of(2L, 1L), store.getAll(List.of(a.id(), b.id())).stream().map(Memory::accessCount).toList());
        insert(3);
        assertEquals(0, countInRecord(a.id()), "a write of another memory leaves them to the flusher");
        long inTx = store.write(tx -> tx.get(a.id()).orElseThrow().accessCount());
        assertEquals(2, inTx, "a row read inside a write carries its pending bumps");
        assertEquals(2, countInRecord(a.id()), "written with the write that read the row");
        assertEquals(0, countInRecord(b.id()), "not the bumps of rows it did not touch");
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount(), "and not counted twice");
        assertEquals(1, store.get(b.id()).orElseThrow().accessCount(), "the untouched row's bump still shows");
        assertEquals(b.id(), store.write(tx -> tx.getByKey(b.zone(), b.key()).orElseThrow().id()));
        assertEquals(1, countInRecord(b.id()), "a row found by key is settled too");
        assertEquals(1, store.get(b.id()).orElseThrow().accessCount());
    }

    @Test
    void aWriteThatFailsPutsTheBumpsItTookBack() throws Exception {
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        assertThrows(IllegalStateException.class, () -> store.write(tx -> {
            tx.get(a.id());
            throw new IllegalStateException("the work fails after reading the row");
        }));
        assertEquals(0, countInRecord(a.id()), "rolled back");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "the bump is pending again");
        store.write(tx -> tx.get(a.id()));
        assertEquals(1, countInRecord(a.id()), "and written by the next write that touches the row, once");
    }

    @Test
    void aWriteOfAMemoryReadWithItsPendingBumpsDoesNotCountThemTwice() throws Exception {
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        Memory read = store.get(a.id()).orElseThrow(); // count 1, from the buffer
        store.write(tx -> {
            tx.update(read.toBuilder().content("changed").build());
            return null;
        });
        assertEquals(1, countInRecord(a.id()));
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
        store.close();
        store = null;
        assertEquals(1, countInRecord(a.id()), "close finds nothing left of it to write");
    }

    @Test
    void closeWritesWhatIsBufferedAndASecondCloseIsHarmless() throws Exception {
        Memory a = insert(1);
        for (int i = 0; i < 3; i++) store.recordAccess(List.of(a.id()), clock.instant());
        MemoryStore closing = store;
        store = null;
        closing.close();
        assertEquals(3, countInRecord(a.id()));
        closing.close();
        store = openBuffered();
        assertEquals(3, store.get(a.id()).orElseThrow().accessCount(), "reopened: counted once");
    }
}
