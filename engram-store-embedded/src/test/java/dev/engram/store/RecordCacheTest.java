package dev.engram.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.PendingAccess;
import dev.engram.testing.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When cached rows may be served, and what this process's own access flush does to them. */
class RecordCacheTest {
    private final MutableClock clock = MutableClock.at("2026-11-30T10:00:00Z");
    private final RecordCache cache = new RecordCache();
    private final Memory a = MemoryFixtures.minimal(clock, 1, "work", "a").build();
    private final Instant later = clock.instant().plusSeconds(60);
    private final Map<String, PendingAccess.Bump> bumps = Map.of(a.id(), new PendingAccess.Bump(2, later));

    @Test
    void rowsAreServedOnlyAtTheVersionTheyWereReadUnder() {
        assertFalse(cache.validAt(0), "a new cache holds nothing valid");
        cache.reset(5);
        cache.putMemory(cache.stamp(), a);
        assertTrue(cache.validAt(5));
        assertFalse(cache.validAt(6), "anyone's commit moves the version");
        cache.reset(6);
        assertNull(cache.memory(a.id()), "a reset drops every row");
    }

    @Test
    void ownAccessFlushIsAppliedToCachedRows() {
        cache.reset(5);
        cache.putMemory(cache.stamp(), a);
        cache.putPinned(cache.stamp(), "work", List.of(a));
        cache.accessWritten(bumps);
        assertTrue(cache.validAt(5), "the reader's own commit leaves its version where it was");
        assertEquals(2, cache.memory(a.id()).accessCount());
        assertEquals(later, cache.memory(a.id()).lastAccessedAt());
        assertNull(cache.pinned("work"), "pinned rows are reloaded rather than patched");
    }

    /**
     * A reader that took its stamp after the flush was announced and read the row after its commit holds the bump
     * already: filed before the report, it would take the bump again from the patch.
     */
    @Test
    void aRowReadWhileAFlushIsCommittingIsNotFiledSoTheBumpCountsOnce() {
        cache.reset(5);
        cache.accessWriting(bumps.keySet());
        long stampDuringFlush = cache.stamp();
        Memory readAfterCommit = a.accessed(2, later);
        cache.putMemory(stampDuringFlush, readAfterCommit);
        assertNull(cache.memory(a.id()), "not filed while the flush is in flight");
        cache.accessWritten(bumps);
        assertNull(cache.memory(a.id()));
        cache.putMemory(cache.stamp(), readAfterCommit);
        assertEquals(2, cache.memory(a.id()).accessCount(), "read after the report: filed as read, counted once");

        cache.accessWriting(bumps.keySet());
        cache.accessWriteAbandoned(bumps.keySet());
        cache.putMemory(cache.stamp(), a);
        assertEquals(a, cache.memory(a.id()), "an abandoned flush no longer holds the row back");
    }

    /**
     * Checks that ran at once on several connections reach the cache in any order: one older than what the cache took
     * in leaves it as it is, even when its access epoch is one the cache has moved past.
     */
    @Test
    void anOlderSnapshotFindsTheCacheAheadOfItAndLeavesItAlone() {
        cache.validateSnapshot(10, feed);
        cache.putMemory(cache.stamp(), a);
        feed.epoch++; // a newer check saw another process's counts: it resets
        cache.validateSnapshot(12, feed);
        cache.putMemory(cache.stamp(), a);
        long stamp = cache.stamp();
        feed.epoch--; // the older check, which read the epoch before
        assertEquals(stamp, cache.validateSnapshot(11, feed), "older than the cache: nothing to do");
        assertEquals(a, cache.memory(a.id()), "and nothing dropped");
        feed.epoch++;
        feed.add(a.id());
        cache.validateSnapshot(13, feed);
        assertNull(cache.memory(a.id()), "a newer one is taken in as before");
    }

    /**
     * With an access feed (PostgreSQL's), another writer's counts are added to the rows the entry names, every other row
     * stays as it is, and an entry of this process's own (whose write patches or evicts its rows itself) is passed over,
     * even when it was reported while the cache was behind.
     */
    @Test
    void anAccessFeedAddsAnotherWritersCountsToTheRowsItNames() {
        RecordCache following = RecordCache.followingAccessFeed();
        Feed withAccess = new Feed();
        following.validate(1, withAccess);
        following.putMemory(following.stamp(), a, 0);
        following.putMemory(following.stamp(), b, 0);

        long readBefore = following.stamp();
        withAccess.accessed.add(new RecordCache.AccessChange(1, List.of(a.id()), List.of(new PendingAccess.Bump(2, later))));
        withAccess.epoch = 1;
        following.validate(2, withAccess);
        assertEquals(a.accessed(2, later), following.memory(a.id()), "a's counts from elsewhere, added to its cached row");
        assertEquals(b, following.memory(b.id()), "b's did not change: still served as it was");
        assertEquals(1, following.accessEpoch());
        following.putMemory(readBefore, a, 0);
        assertEquals(2, following.memory(a.id()).accessCount(), "a row read before the entry is not filed over the patched one");

        Instant latest = later.plusSeconds(5);
        withAccess.accessed.add(new RecordCache.AccessChange(2, List.of(b.id()), List.of(new PendingAccess.Bump(1, latest))));
        following.ownEpochMoveStarting(2, 3); // this process's flush, after it
        withAccess.accessed.add(new RecordCache.AccessChange(3, List.of(a.id()), List.of(new PendingAccess.Bump(4, latest))));
        following.accessEpochMoved(2, 3); // reported while the cache is still at 1
        withAccess.epoch = 3;
        following.validate(3, withAccess);
        assertEquals(b.accessed(1, latest), following.memory(b.id()));
        assertEquals(2, following.memory(a.id()).accessCount(), "its own entry is passed over: its flush patched the row");
        assertEquals(3, following.accessEpoch());

        withAccess.accessed.add(new RecordCache.AccessChange(4, List.of(b.id()))); // written before the feed said what it added
        withAccess.epoch = 4;
        following.validate(4, withAccess);
        assertNull(following.memory(b.id()), "an entry without counts: the row is read again");
        assertEquals(2, following.memory(a.id()).accessCount());

        withAccess.accessed.clear(); // the entries are gone: it cannot be told, so it resets
        withAccess.epoch = 6;
        following.putMemory(following.stamp(), b, 4);
        following.validate(5, withAccess);
        assertNull(following.memory(b.id()));
    }

    /**
     * A row read from a snapshot that already holds access-feed entries the cache has not taken in would get their counts
     * a second time when it does: such a row is not filed.
     */
    @Test
    void aRowReadPastTheAccessEpochTheCacheTookInIsNotFiled() {
        RecordCache following = RecordCache.followingAccessFeed();
        Feed withAccess = new Feed();
        following.validate(1, withAccess);
        Memory readWithEntry1 = a.accessed(2, later);
        following.putMemory(following.stamp(), readWithEntry1, 1);
        assertNull(following.memory(a.id()), "its snapshot holds entry 1, which the cache has not taken in");

        withAccess.accessed.add(new RecordCache.AccessChange(1, List.of(a.id()), List.of(new PendingAccess.Bump(2, later))));
        withAccess.epoch = 1;
        following.validate(2, withAccess);
        following.putMemory(following.stamp(), readWithEntry1, 1);
        assertEquals(2, following.memory(a.id()).accessCount(), "once the cache is at entry 1: filed, and counted once");
        assertThrows(IllegalStateException.class, () -> following.putMemory(following.stamp(), b),
                "such a cache needs to know the head a row was read at");
    }

    /**
     * The last read moves forward only, whichever order the bumps come in: a replica adds another's entries in the feed's
     * order and its own when they commit, and still ends where the row does.
     */
    @Test
    void bumpsAddUpToTheSameRowInAnyOrder() {
        PendingAccess.Bump early = new PendingAccess.Bump(1, later), late = new PendingAccess.Bump(2, later.plusSeconds(9));
        assertEquals(early.applyTo(late.applyTo(a)), late.applyTo(early.applyTo(a)));
        assertEquals(later.plusSeconds(9), early.applyTo(late.applyTo(a)).lastAccessedAt());
        assertEquals(early.then(late), late.then(early));
    }

    @Test
    void flushesAddUpOnTheCachedRowUntilItIsReadAgain() {
        cache.reset(5);
        cache.putMemory(cache.stamp(), a);
        cache.accessWritten(bumps);
        Instant last = later.plusSeconds(30);
        cache.accessWritten(Map.of(a.id(), new PendingAccess.Bump(3, last)));
        Map<String, Memory> found = new java.util.HashMap<>();
        List<String> missing = new ArrayList<>();
        cache.memories(List.of(a.id(), "absent"), found, missing);
        assertEquals(5, found.get(a.id()).accessCount(), "both flushes count, in the batched read too");
        assertEquals(last, found.get(a.id()).lastAccessedAt(), "the later flush's time");
        assertEquals(a.content(), found.get(a.id()).content());
        assertEquals(List.of("absent"), missing);

        // a row read from the file after the flushes holds them already: they must not be added twice
        Memory reread = a.accessed(5, last);
        cache.putMemory(cache.stamp(), reread);
        assertEquals(5, cache.memory(a.id()).accessCount());
    }

    @Test
    void linkCountsKeptBesideRowsAreDroppedWithTheOthersAndSurviveANewerReadOfTheRow() {
        Memory b = MemoryFixtures.minimal(clock, 2, "work", "b").build();
        Feed feed = new Feed();
        cache.validate(1, feed);
        cache.putMemory(cache.stamp(), a);
        cache.putDegree(cache.stamp(), a.id(), 3); // a has a row: kept beside it
        cache.putDegree(cache.stamp(), b.id(), 2); // b has none: kept on its own
        cache.putDegree(cache.stamp(), "c", 0);
        Map<String, Integer> found = new java.util.HashMap<>();
        List<String> missing = new ArrayList<>();
        cache.degrees(List.of(a.id(), b.id(), "c", "d"), found, missing);
        assertEquals(Map.of(a.id(), 3, b.id(), 2), found, "known counts, those of zero left out");
        assertEquals(List.of("d"), missing);

        cache.putMemory(cache.stamp(), a.accessed(1, later)); // the row read again: edges did not change with it
        assertEquals(3, cache.degree(a.id()));

        feed.add(b.id()); // a commit: the feed names b
        cache.validate(2, feed);
        assertEquals(1, cache.memory(a.id()).accessCount(), "a's row is kept: the feed does not name it");
        found.clear();
        missing.clear();
        cache.degrees(List.of(a.id(), b.id(), "c"), found, missing);
        assertEquals(Map.of(a.id(), 3, b.id(), 2), found, "the counts are kept: the edge feed names neither (b's row changed, not its links)");
        assertEquals(List.of(), missing, "c's zero stands too");

        feed.addEdge(a.id()); // a link of a's was added or removed
        cache.validate(3, feed);
        assertNull(cache.degree(a.id()), "the edge feed names a: its count kept in its row is dropped");
        assertEquals(1, cache.memory(a.id()).accessCount(), "its row is not: links are not in it");
        assertEquals(0, cache.degree("c"));
    }

    /** The change feeds held in lists, with the access epoch as a number the test moves. */
    private static final class Feed implements RecordCache.ChangeFeed {
        final List<Change> changes = new ArrayList<>();
        final List<Change> edgeChanges = new ArrayList<>();
        long epoch;
        int reads;
        /** The access feed, for the tests of a cache that follows one. */
        final List<RecordCache.AccessChange> accessed = new ArrayList<>();
        /** The memories pinned now, for a feed that tells (PostgreSQL's); null: it cannot tell. */
        java.util.Set<String> pinned;

        @Override
        public java.util.Set<String> pinnedAmong(List<Change> entries) {
            if (pinned == null) return null;
            return entries.stream().map(Change::memoryId).filter(pinned::contains).collect(java.util.stream.Collectors.toSet());
        }

        @Override
        public List<RecordCache.AccessChange> accessSince(long after, int max) {
            return accessed.stream().filter(x -> x.epoch() > after).limit(max).toList();
        }

        void add(String memoryId) {
            changes.add(new Change(head() + 1, memoryId));
        }

        /** A memory whose links changed, as the edges table's triggers write it. */
        void addEdge(String memoryId) {
            edgeChanges.add(new Change(edgeHead() + 1, memoryId));
        }

        @Override
        public List<Change> edgesSince(long seq, int max) {
            return edgeChanges.stream().filter(c -> c.seq() > seq).limit(max).toList();
        }

        @Override
        public long edgeHead() {
            return edgeChanges.isEmpty() ? 0 : edgeChanges.get(edgeChanges.size() - 1).seq();
        }

        @Override
        public List<Change> since(long seq, int max) {
            reads++;
            return changes.stream().filter(c -> c.seq() > seq).limit(max).toList();
        }

        @Override
        public long head() {
            return changes.isEmpty() ? 0 : changes.get(changes.size() - 1).seq();
        }

        @Override
        public long accessEpoch() {
            return epoch;
        }
    }

    private final Memory b = MemoryFixtures.minimal(clock, 2, "work", "b").build();
    private final Feed feed = new Feed();

    /** A cache at version 5 holding a and b, their pins, an edge list and a link count. */
    private void filled() {
        feed.add(a.id());
        feed.add(b.id());
        cache.validate(5, feed);
        long stamp = cache.stamp();
        cache.putMemory(stamp, a);
        cache.putMemory(stamp, b);
        cache.putPinned(stamp, "work", List.of(a));
        cache.putEdges(stamp, b.id(), List.of(new Edge(b.id(), a.id(), EdgeType.RELATED, clock.instant())));
        cache.putDegree(stamp, b.id(), 1);
    }

    @Test
    void aCommitEvictsOnlyTheMemoriesItsChangesName() {
        filled();
        assertEquals(2, cache.seq(), "a reset starts from the feed's head");
        feed.add(a.id());
        long before = cache.stamp();
        long stamp = cache.validate(6, feed);
        assertNull(cache.memory(a.id()), "the changed memory is read again");
        assertEquals(b, cache.memory(b.id()), "the others stay");
        assertNull(cache.pinned("work"), "pins are not in the feed: dropped whole");
        assertEquals(1, cache.edges(b.id()).size(), "b's links did not change: neither feed names b");
        assertEquals(1, cache.degree(b.id()));
        assertEquals(3, cache.seq());
        assertTrue(stamp != before, "a row read before the eviction must not be filed after it");
        cache.putMemory(before, a);
        assertNull(cache.memory(a.id()));
        assertTrue(cache.validAt(6));
    }

    @Test
    void aCommitThatNamesNoMemoryKeepsTheRowsAndLinks() {
        filled();
        cache.validate(6, feed); // a mark or a zone written: the version moves, neither feed does
        assertEquals(a, cache.memory(a.id()));
        assertEquals(1, cache.edges(b.id()).size());
        assertNull(cache.pinned("work"), "pins are dropped on every commit");
    }

    @Test
    void anEdgeChangeDropsTheLinksOfTheMemoriesItNamesOnly() {
        filled();
        long before = cache.stamp();
        feed.addEdge(b.id());
        feed.addEdge(a.id()); // the edge b -> a was removed
        cache.validate(6, feed);
        assertNull(cache.edges(b.id()));
        assertNull(cache.degree(b.id()));
        assertEquals(b, cache.memory(b.id()), "rows stay: links are not in them");
        cache.putEdges(before, b.id(), List.of(new Edge(b.id(), a.id(), EdgeType.RELATED, clock.instant())));
        cache.putDegree(before, b.id(), 1);
        assertNull(cache.edges(b.id()), "links read before the change must not be filed after it");
        assertNull(cache.degree(b.id()));
        cache.putDegree(before, "other", 2);
        assertEquals(2, cache.degree("other"), "a count of a memory the change did not name is filed");
    }

    /**
     * A feed that tells which changed memories are pinned now keeps the zones' cached pins through changes to memories
     * that are not pinned and were not; a change to a listed one drops its list, one to a memory pinned now drops them all.
     */
    @Test
    void pinsStayCachedThroughChangesToMemoriesThatAreNotPinned() {
        feed.pinned = new java.util.HashSet<>(List.of(a.id()));
        filled(); // pins of work: [a]
        cache.putPinned(cache.stamp(), "other", List.of());
        feed.add(b.id());
        cache.validate(6, feed);
        assertEquals(List.of(a), cache.pinned("work"), "b is not pinned and was not in the list");
        cache.accessWritten(Map.of(b.id(), new PendingAccess.Bump(1, later)));
        assertEquals(List.of(a), cache.pinned("work"), "counts of a memory not in the list leave it too");

        long before = cache.stamp();
        feed.pinned.remove(a.id());
        feed.add(a.id()); // a listed memory unpinned or deleted
        cache.validate(7, feed);
        assertNull(cache.pinned("work"));
        assertEquals(List.of(), cache.pinned("other"), "the lists without it stay");
        cache.putPinned(before, "work", List.of(a));
        assertNull(cache.pinned("work"), "a list read before a member changed is not filed");
        cache.putPinned(cache.stamp(), "work", List.of(a));

        Memory c = MemoryFixtures.minimal(clock, 3, "other", "c").build();
        feed.pinned.add(c.id()); // pinned now: it may have joined any zone's list (or, edited, moved to another zone)
        feed.add(c.id());
        cache.validate(8, feed);
        assertNull(cache.pinned("work"));
        assertNull(cache.pinned("other"));
    }

    @Test
    void anIdleCacheStaysValidForMinutesAndResetsOnceOld() {
        long[] now = {0};
        RecordCache aging = new RecordCache(RecordCache.DEFAULT_MAX_BYTES, () -> now[0]);
        aging.validate(5, feed);
        aging.putMemory(aging.stamp(), a);
        now[0] = TimeUnit.MINUTES.toNanos(5);
        assertTrue(aging.validAt(5), "recalls minutes apart find the rows they read");
        aging.validate(5, feed);
        assertEquals(a, aging.memory(a.id()));
        now[0] = RecordCache.MAX_AGE_NANOS;
        assertFalse(aging.validAt(5), "an edit made outside Engram is seen within the bound");
        aging.validate(5, feed);
        assertNull(aging.memory(a.id()));
    }

    @Test
    void aLongFeedOrOneThatWentBackwardsResetsEverything() {
        filled();
        for (int i = 0; i <= RecordCache.MAX_EVICTIONS; i++) feed.add(MemoryFixtures.id(1000 + i));
        cache.validate(6, feed);
        assertNull(cache.memory(b.id()), "more changes than the bound: a reset");
        assertEquals(feed.head(), cache.seq());

        cache.putMemory(cache.stamp(), b);
        feed.changes.clear(); // the file was replaced by an older one
        cache.validate(7, feed);
        assertNull(cache.memory(b.id()), "a head behind the cache: a reset");
        assertEquals(0, cache.seq());

        cache.putMemory(cache.stamp(), b);
        for (int i = 0; i <= RecordCache.MAX_EVICTIONS; i++) feed.addEdge(MemoryFixtures.id(2000 + i));
        cache.validate(8, feed);
        assertNull(cache.memory(b.id()), "more edge changes than the bound: a reset too");

        cache.putMemory(cache.stamp(), b);
        feed.edgeChanges.clear();
        cache.validate(9, feed);
        assertNull(cache.memory(b.id()), "an edge head behind the cache: a reset");
    }

    @Test
    void accessCountsWrittenElsewhereResetButThisProcesssOwnDoNot() {
        filled();
        cache.accessEpochMoved(0, 1); // this process's flush, from the epoch the cache knew
        feed.epoch = 1;
        cache.validate(6, feed);
        assertEquals(b, cache.memory(b.id()), "its own counts were patched in or evicted: the rows stay");

        feed.epoch = 2; // another process flushed counts
        cache.validate(7, feed);
        assertNull(cache.memory(b.id()), "someone else's counts: every row is read again");

        cache.putMemory(cache.stamp(), b);
        cache.accessEpochMoved(5, 6); // this process moved it, but not from the epoch the cache knew
        feed.epoch = 6;
        cache.validate(7, feed);
        assertNull(cache.memory(b.id()), "a flush by someone else in between: reset at the next validation");
    }

    /**
     * A write that settles access counts commits, then reports; a recall validating in between finds the epoch moved. When
     * the write announced the move before its commit, that is no reason to reset (it was, fifteen times in ten seconds under
     * issue 18's load); a move nobody announced, or one announced and then rolled back, still is.
     */
    @Test
    void anAnnouncedEpochMoveOfThisProcessDoesNotResetAValidationBeforeItsReport() {
        filled();
        cache.ownEpochMoveStarting(0, 1);
        feed.epoch = 1; // committed, not yet reported
        feed.add(a.id());
        cache.validate(6, feed);
        assertEquals(b, cache.memory(b.id()), "the move is this process's: the rows stay");
        cache.evict(List.of(b.id())); // what the write does once it reports: evicts the rows it settled
        cache.accessEpochMoved(0, 1);
        cache.putMemory(cache.stamp(), b);
        feed.add(a.id());
        cache.validate(7, feed);
        assertEquals(b, cache.memory(b.id()), "the late report is no news either");

        cache.ownEpochMoveStarting(1, 2);
        cache.ownEpochMoveAbandoned(1, 2); // rolled back
        feed.epoch = 2; // and another process moved it the same way
        cache.validate(8, feed);
        assertNull(cache.memory(b.id()), "a move this process did not commit resets");
    }

    @Test
    void anEvictionDropsTheRowsAndStopsPutsReadBeforeIt() {
        filled();
        long before = cache.stamp();
        cache.evict(List.of(a.id()));
        assertNull(cache.memory(a.id()));
        assertEquals(b, cache.memory(b.id()));
        cache.putMemory(before, a);
        assertNull(cache.memory(a.id()));
    }

    @Test
    void rowsBeyondTheBoundEvictTheLeastRecentlyUsed() {
        RecordCache small = new RecordCache(200_000, System::nanoTime);
        small.reset(1);
        String big = "x".repeat(8_000);
        int n = (int) (200_000 / (big.length() + RecordCache.ROW_OVERHEAD_BYTES)) + 10;
        for (int i = 0; i < n; i++) {
            small.putMemory(small.stamp(), MemoryFixtures.minimal(clock, i, "work", big).build());
            if (i > 0) small.memory(MemoryFixtures.id(0)); // keep the first one in use
        }
        assertTrue(small.memory(MemoryFixtures.id(0)) != null, "recently used stays");
        assertNull(small.memory(MemoryFixtures.id(1)), "least recently used went first");
        assertTrue(small.memory(MemoryFixtures.id(n - 1)) != null);
    }

    /** The bound counts what a row costs besides its text: a short row is no free row (the bound counted characters only). */
    @Test
    void manyShortRowsAreBoundedByTheirHeapToo() {
        RecordCache small = new RecordCache(100_000, System::nanoTime);
        small.reset(1);
        for (int i = 0; i < 1_000; i++) small.putMemory(small.stamp(), MemoryFixtures.minimal(clock, i, "work", "tiny").build());
        long kept = java.util.stream.IntStream.range(0, 1_000).filter(i -> small.memory(MemoryFixtures.id(i)) != null).count();
        assertTrue(kept > 0 && kept * ("tiny".length() + RecordCache.ROW_OVERHEAD_BYTES) <= 100_000, kept + " rows kept");
        assertTrue(small.memory(MemoryFixtures.id(999)) != null, "the newest row is kept");
    }

    @Test
    void aRowReadBeforeAChangeToItAResetOrAnAccessPatchIsNotFiled() {
        long beforeChange = cache.validate(5, feed);
        feed.add(a.id());
        cache.validate(6, feed); // another reader saw a's change meanwhile
        cache.putMemory(beforeChange, a);
        assertNull(cache.memory(a.id()), "a row from the older snapshot must not outlive the validation");

        long beforeReset = cache.stamp();
        feed.epoch++; // another process wrote access counts: the next validation resets
        cache.validate(7, feed);
        cache.putMemory(beforeReset, a);
        assertNull(cache.memory(a.id()), "a row read before a reset must not be filed after it");

        long beforeFlush = cache.stamp();
        cache.accessWritten(bumps); // the flush patched the cache while the row was being read
        cache.putMemory(beforeFlush, a);
        assertNull(cache.memory(a.id()), "a row read before the flush would lack its bump");

        cache.putMemory(cache.stamp(), a);
        assertEquals(a, cache.memory(a.id()));
        assertEquals(cache.stamp(), cache.validate(7, feed), "validating at the same version keeps the rows and the stamp");
    }

    /**
     * Under a stream of writes a recall's hundred rows are read while other memories change: a change to another memory
     * (or a commit the feed does not name, such as a new edge) must not drop them, or the cache never fills (issue 18).
     */
    @Test
    void aRowReadWhileOtherMemoriesChangeIsFiled() {
        Memory b = MemoryFixtures.minimal(clock, 2, "work", "b").build();
        long stamp = cache.validate(5, feed);
        feed.add(b.id());
        cache.validate(6, feed); // b changed while a was being read
        cache.validate(7, feed); // and a commit the feed does not name
        cache.putMemory(stamp, a);
        cache.putMemory(stamp, b);
        assertEquals(a, cache.memory(a.id()), "a did not change: its row stands");
        assertNull(cache.memory(b.id()), "b changed after the read began: its row from before is dropped");
    }

    /** Past the ledger's size the oldest per-memory changes are forgotten one by one, and count as a change to every row. */
    @Test
    void aStampOlderThanTheLedgerRemembersDropsEveryPut() {
        long stamp = cache.validate(5, feed);
        for (int i = 0; i <= RecordCache.LEDGER_IDS; i++) cache.evict(List.of("other-" + i));
        cache.putMemory(stamp, a);
        assertNull(cache.memory(a.id()), "whether a changed can no longer be told");
        cache.putMemory(cache.stamp(), a);
        assertEquals(a, cache.memory(a.id()));
    }
}
