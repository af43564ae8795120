package dev.engram.store;

import dev.engram.spi.MemoryStore;
import dev.engram.store.lucene.LuceneSearchIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Result of comparing the search index with the record; consistent when both id lists are empty. */
public record IndexCheck(long recordCount, long indexedCount, List<String> missingFromIndex,
                         List<String> extraInIndex, long headSeq, long indexedSeq) {
    public IndexCheck {
        missingFromIndex = List.copyOf(missingFromIndex);
        extraInIndex = List.copyOf(extraInIndex);
    }

    /**
     * Compares {@code index} with {@code store} after a catch-up: counts, and ids present in one but not
     * the other. Exact when no write lands during the check (from this or another process or replica);
     * it retries a few times if one does. One check for the embedded and the PostgreSQL stores.
     */
    public static IndexCheck of(MemoryStore store, LuceneSearchIndex index) {
        for (int attempt = 1; ; attempt++) {
            long head = store.headSeq();
            long indexedSeq = index.catchUp();
            Set<String> indexed = index.indexedIds();
            Set<String> recorded = new HashSet<>();
            store.forEach(null, m -> recorded.add(m.id()));
            if (store.headSeq() != head && attempt < 5) continue; // a concurrent write: compare again
            List<String> missing = new ArrayList<>();
            for (String id : recorded) if (!indexed.contains(id)) missing.add(id);
            List<String> extra = new ArrayList<>();
            for (String id : indexed) if (!recorded.contains(id)) extra.add(id);
            missing.sort(null);
            extra.sort(null);
            return new IndexCheck(recorded.size(), indexed.size(), missing, extra, head, indexedSeq);
        }
    }

    public boolean consistent() {
        return missingFromIndex.isEmpty() && extraInIndex.isEmpty();
    }
}
