package dev.engram.store;

import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.WordWeights;
import dev.engram.store.lucene.LuceneSearchIndex;
import java.util.Collection;
import java.util.List;

/**
 * The index the engine holds, whose implementation changes when the store is encrypted or decrypted
 * (on disk while plain, in memory while encrypted): the engine keeps one reference throughout.
 */
final class SwitchingIndex implements SearchIndex {
    private volatile LuceneSearchIndex current;

    SwitchingIndex(LuceneSearchIndex first) {
        this.current = first;
    }

    /** Puts {@code next} in place and returns the one it replaced, for the caller to close. */
    synchronized LuceneSearchIndex swap(LuceneSearchIndex next) {
        LuceneSearchIndex old = current;
        current = next;
        return old;
    }

    LuceneSearchIndex current() {
        return current;
    }

    @Override
    public long catchUp() {
        return current.catchUp();
    }

    @Override
    public void catchUpSoon() {
        current.catchUpSoon();
    }

    @Override
    public void catchUpAfterWrite() {
        current.catchUpAfterWrite(); // writers share one catch-up turn (not the default's full catch-up)
    }

    @Override
    public List<IndexHit> search(IndexQuery query) {
        return current.search(query);
    }

    @Override
    public List<IndexHit> searchVector(VectorQuery query) {
        return current.searchVector(query);
    }

    @Override
    public WordWeights wordWeights(Collection<String> words) {
        return current.wordWeights(words);
    }

    @Override
    public long indexedSeq() {
        return current.indexedSeq();
    }

    @Override
    public void close() {
        current.close();
    }
}
