package dev.engram.spi;

import java.util.Collection;
import java.util.List;

/**
 * Derived, rebuildable search structure over a {@link MemoryStore}. The store stays the truth: the
 * engine loads every hit from the store and re-checks its filters there, so a lagging index can
 * miss a fresh memory for a moment but never return a wrong one.
 * <ul>
 *   <li>{@link #catchUp} applies every store change it has not seen; after it returns, searches in
 *       this process reflect the store as of that moment. Safe to call from several processes.
 *   <li>{@link #search} never throws for an empty or stale index; it returns what it has.
 * </ul>
 */
public interface SearchIndex extends AutoCloseable {

    /** Brings the index up to the store's head; returns the sequence number now reflected. */
    long catchUp();

    /**
     * Asks for a catch-up without waiting for it: what a write calls when its caller does not search
     * next. The store already holds the write, and {@link #search} catches up before it reads, so
     * nothing is missed; the write just does not pay for the index. By default this catches up at once.
     */
    default void catchUpSoon() {
        catchUp();
    }

    /**
     * What a write of this process calls once the store has committed it, before the write is acknowledged:
     * returns once this process's searches find it, so its caller's next search does (read-your-writes).
     * An index whose searches may skip a catch-up while this process's own writes are being indexed relies
     * on it; one that cannot catch up at once (another process holds its writer) may return earlier, and
     * then searches catch up first as before. By default this catches up at once.
     */
    default void catchUpAfterWrite() {
        catchUp();
    }

    /** Ranked candidates, best first; BM25-style scores, higher is better. */
    List<IndexHit> search(IndexQuery query);

    /**
     * Nearest neighbours among memories whose stored vector comes from {@code query.modelId()};
     * filters are applied inside the search (not after it), so a selective filter cannot starve the
     * result. Empty when no memory has a vector of that model.
     */
    List<IndexHit> searchVector(VectorQuery query);

    /**
     * How informative each of {@code words} (lowercase, as {@code dev.engram.analysis.Words} splits text)
     * is over memory content, in every zone: the idf BM25 itself uses. One dictionary lookup per word.
     */
    WordWeights wordWeights(Collection<String> words);

    /** The store sequence number this process's searches reflect. */
    long indexedSeq();

    @Override
    void close();
}
