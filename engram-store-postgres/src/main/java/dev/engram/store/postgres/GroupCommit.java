package dev.engram.store.postgres;

import dev.engram.access.Access;
import dev.engram.error.StoreException;
import dev.engram.spi.StoreTransaction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The writes of one replica, in arrival order, several committed by one transaction. Every write waits for the
 * cluster's write lock and then for its commit to reach the disk; one at a time, a replica under a stream of
 * remembers committed about one write per disk flush, and the writes queued behind that flush waited for all of
 * those before them (issue 18). Here the writer whose turn it is takes every write queued by then (up to {@link
 * #MAX_BATCH}) and hands them to the {@link Committer} together: one lock, one commit, one flush. A write is
 * acknowledged only once the transaction that holds it has committed, as before.
 *
 * <p>Only one writer a replica waits for the lock, on one pooled connection; before the queue, writers waiting for
 * it held most of the pool, and recalls waited for a connection behind them. A write that has not been taken within
 * {@code turnWait} (a long queue, or an outage in which every turn ends only when its connection wait does) is
 * written on its own, as before the queue, so that the writers behind an outage fail together rather than one
 * after the other.
 *
 * <p>A write runs on the thread whose turn it is, possibly not its caller's: the caller's rights ({@link Access})
 * travel with it. Thread-safe.
 */
final class GroupCommit {
    /** Most writes one transaction takes: a queue longer than this is committed in several. */
    static final int MAX_BATCH = 32;

    /** How the writes reach the store. */
    interface Committer {
        /** Runs {@code writes} in order in one transaction and commits; must {@link Queued#finish} every one of them. */
        void together(List<Queued<?>> writes);

        /** Runs {@code work} in a transaction of its own (retrying as the store does) and commits. */
        <T> T alone(Function<StoreTransaction, T> work);
    }

    /** One write waiting for, or being given, its transaction. */
    static final class Queued<T> {
        final Function<StoreTransaction, T> work;
        /** Must have a transaction of its own (it changes the transaction's settings). */
        final boolean alone;
        private boolean taken;
        private boolean done;
        private boolean finished;
        private T result;
        private RuntimeException failure;

        private Queued(Function<StoreTransaction, T> work, boolean alone) {
            this.work = work;
            this.alone = alone;
        }

        /** Settles this write: {@code failure} null means it committed with {@code result}. */
        @SuppressWarnings("unchecked")
        void finish(Object result, RuntimeException failure) {
            this.finished = true;
            this.result = (T) result;
            this.failure = failure;
        }

        private T outcome() {
            if (failure != null) throw failure;
            return result;
        }
    }

    private final Committer committer;
    private final long turnWaitMillis;
    private final ArrayDeque<Queued<?>> queue = new ArrayDeque<>();
    /** A writer is committing a batch: the others wait for it (guarded by this). */
    private boolean committing;

    GroupCommit(Committer committer, long turnWaitMillis) {
        this.committer = committer;
        this.turnWaitMillis = turnWaitMillis;
    }

    /** Queues {@code work}, and returns its result once the transaction that took it has committed. */
    <T> T write(Function<StoreTransaction, T> work) {
        return write(work, false);
    }

    /** As {@link #write(Function)}; {@code alone}: in a transaction of its own, still in its turn. */
    <T> T write(Function<StoreTransaction, T> work, boolean alone) {
        boolean[] interrupted = {false};
        try {
            return write(new Queued<>(Access.carried(work), alone), interrupted);
        } finally {
            if (interrupted[0]) Thread.currentThread().interrupt();
        }
    }

    private <T> T write(Queued<T> mine, boolean[] interrupted) {
        long deadline = System.nanoTime() + turnWaitMillis * 1_000_000;
        while (true) {
            List<Queued<?>> batch;
            synchronized (this) {
                if (!mine.taken && !queue.contains(mine)) queue.add(mine);
                while (committing && !mine.done) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0 && !mine.taken) break;
                    try {
                        if (left > 0) wait(Math.max(1, left / 1_000_000));
                        else wait();
                    } catch (InterruptedException e) {
                        interrupted[0] = true; // set again on the way out
                        if (!mine.taken) {
                            queue.remove(mine);
                            throw new StoreException("write: interrupted while waiting for its turn", e);
                        }
                        // taken: its outcome is on its way, and is what the caller gets
                    }
                }
                if (mine.done) return mine.outcome();
                if (committing) { // not taken within the wait: on its own, as before the queue
                    queue.remove(mine);
                    batch = null;
                } else {
                    committing = true;
                    batch = take();
                }
            }
            if (batch == null) return committer.alone(mine.work);
            try {
                commit(batch);
            } finally {
                synchronized (this) {
                    for (Queued<?> q : batch) {
                        if (!q.finished) q.finish(null, new StoreException("write: its transaction ended without an outcome"));
                        q.done = true;
                    }
                    committing = false;
                    notifyAll();
                }
            }
            if (mine.done) return mine.outcome();
            // more were queued ahead of this one than a transaction takes: its turn again
        }
    }

    /** Writes waiting to be taken (for tests). */
    synchronized int queued() {
        return queue.size();
    }

    /** The queue's head, up to {@link #MAX_BATCH} writes, stopping before one that must be alone (unless it is first). */
    private List<Queued<?>> take() {
        List<Queued<?>> batch = new ArrayList<>();
        while (!queue.isEmpty() && batch.size() < MAX_BATCH) {
            Queued<?> next = queue.peek();
            if (next.alone && !batch.isEmpty()) break;
            queue.poll();
            next.taken = true;
            batch.add(next);
            if (next.alone) break;
        }
        return batch;
    }

    private void commit(List<Queued<?>> batch) {
        if (batch.size() == 1) {
            Queued<?> q = batch.get(0);
            try {
                q.finish(committer.alone(q.work), null);
            } catch (RuntimeException e) {
                q.finish(null, e);
            }
            return;
        }
        try {
            committer.together(batch);
        } catch (RuntimeException e) {
            for (Queued<?> q : batch) if (!q.finished) q.finish(null, e);
        }
    }
}
