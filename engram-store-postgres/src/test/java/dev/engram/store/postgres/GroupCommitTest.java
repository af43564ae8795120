package dev.engram.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Right;
import dev.engram.error.ConflictException;
import dev.engram.spi.StoreTransaction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The queue itself, over a committer that records what it was given and runs each write with a null transaction. */
class GroupCommitTest {
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** Records every transaction's writes; the first one waits for {@link #release} once it has started. */
    private static final class Recording implements GroupCommit.Committer {
        final List<List<String>> transactions = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void together(List<GroupCommit.Queued<?>> writes) {
            List<String> names = new ArrayList<>();
            List<Object> results = new ArrayList<>();
            List<RuntimeException> failures = new ArrayList<>();
            for (GroupCommit.Queued<?> q : writes) {
                try {
                    results.add(q.work.apply(null));
                    failures.add(null);
                } catch (RuntimeException e) {
                    results.add(null);
                    failures.add(e);
                }
                names.add(String.valueOf(results.get(results.size() - 1)));
            }
            transactions.add(names);
            for (int i = 0; i < writes.size(); i++) writes.get(i).finish(results.get(i), failures.get(i));
        }

        @Override
        public <T> T alone(Function<StoreTransaction, T> work) {
            T result = null;
            try {
                result = work.apply(null);
                return result;
            } finally {
                transactions.add(List.of(String.valueOf(result)));
                started.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static void awaitQueued(GroupCommit writes, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (writes.queued() < n && System.nanoTime() < deadline) Thread.sleep(2);
        assertEquals(n, writes.queued(), "writes queued behind the first");
    }

    @Test
    @Timeout(20)
    void writesQueuedBehindATransactionAreCommittedTogetherInArrivalOrderEachWithItsOwnOutcome() throws Exception {
        Recording committer = new Recording();
        GroupCommit writes = new GroupCommit(committer, 10_000);
        Future<String> first = threads.submit(() -> writes.write(tx -> "first"));
        assertTrue(committer.started.await(10, TimeUnit.SECONDS));
        List<Future<String>> later = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = "w" + i;
            later.add(threads.submit(() -> writes.write(tx -> {
                if (name.equals("w2")) throw new ConflictException("w2 is refused");
                return name;
            })));
            awaitQueued(writes, i + 1); // one at a time, so the order of arrival is known
        }
        committer.release.countDown();
        assertEquals("first", first.get(10, TimeUnit.SECONDS));
        for (int i = 0; i < 5; i++) {
            if (i == 2) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> later.get(2).get(10, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof ConflictException, "the refusal reaches its own caller: " + e.getCause());
            } else {
                assertEquals("w" + i, later.get(i).get(10, TimeUnit.SECONDS));
            }
        }
        assertEquals(List.of(List.of("first"), List.of("w0", "w1", "null", "w3", "w4")), committer.transactions,
                "the five that waited went in one transaction, in the order they came");
    }

    @Test
    @Timeout(20)
    void aWriteThatMustBeAloneGetsATransactionOfItsOwn() throws Exception {
        Recording committer = new Recording();
        GroupCommit writes = new GroupCommit(committer, 10_000);
        Future<String> first = threads.submit(() -> writes.write(tx -> "first"));
        assertTrue(committer.started.await(10, TimeUnit.SECONDS));
        List<Future<String>> later = new ArrayList<>();
        later.add(threads.submit(() -> writes.write(tx -> "a")));
        awaitQueued(writes, 1);
        later.add(threads.submit(() -> writes.write(tx -> "flush", true)));
        awaitQueued(writes, 2);
        later.add(threads.submit(() -> writes.write(tx -> "b")));
        awaitQueued(writes, 3);
        later.add(threads.submit(() -> writes.write(tx -> "c")));
        awaitQueued(writes, 4);
        committer.release.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (Future<String> f : later) f.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(List.of("first"), List.of("a"), List.of("flush"), List.of("b", "c")), committer.transactions);
    }

    @Test
    @Timeout(20)
    void aWriteRunsWithItsCallersRightsWhicheverThreadCommitsIt() throws Exception {
        Recording committer = new Recording();
        GroupCommit writes = new GroupCommit(committer, 10_000);
        Grants reader = new Grants(Map.of("team", Right.READ), null);
        Future<Grants> first = threads.submit(() -> Access.as(Grants.FULL, () -> writes.write(tx -> Access.current())));
        assertTrue(committer.started.await(10, TimeUnit.SECONDS));
        Future<Grants> second = threads.submit(() -> Access.as(reader, () -> writes.write(tx -> Access.current())));
        awaitQueued(writes, 1);
        Future<Boolean> local = threads.submit(() -> writes.write(tx -> Access.local()));
        awaitQueued(writes, 2);
        committer.release.countDown();
        assertSame(Grants.FULL, first.get(10, TimeUnit.SECONDS));
        assertSame(reader, second.get(10, TimeUnit.SECONDS), "run by the first writer's thread, with the second's rights");
        assertTrue(local.get(10, TimeUnit.SECONDS), "a local call stays local");
        assertEquals(3, committer.transactions.stream().mapToInt(List::size).sum());
    }

    @Test
    @Timeout(20)
    void aWriteNotTakenWithinTheWaitIsWrittenOnItsOwn() throws Exception {
        Recording committer = new Recording();
        GroupCommit writes = new GroupCommit(committer, 200);
        Future<String> first = threads.submit(() -> writes.write(tx -> "first"));
        assertTrue(committer.started.await(10, TimeUnit.SECONDS));
        Future<String> second = threads.submit(() -> writes.write(tx -> "second"));
        // the first transaction is stuck: after 200 ms the second leaves the queue and is written on its own
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (committer.transactions.size() < 2 && System.nanoTime() < deadline) Thread.sleep(5);
        assertEquals(List.of(List.of("first"), List.of("second")), committer.transactions, "written while the first is stuck");
        assertEquals(0, writes.queued(), "it left the queue");
        committer.release.countDown();
        assertEquals("first", first.get(10, TimeUnit.SECONDS));
        assertEquals("second", second.get(10, TimeUnit.SECONDS));
    }
}
