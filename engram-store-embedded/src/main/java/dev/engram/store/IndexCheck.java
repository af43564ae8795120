package dev.engram.store;

import java.util.List;

/** Result of comparing the search index with the record; consistent when both id lists are empty. */
public record IndexCheck(long recordCount, long indexedCount, List<String> missingFromIndex,
                         List<String> extraInIndex, long headSeq, long indexedSeq) {
    public IndexCheck {
        missingFromIndex = List.copyOf(missingFromIndex);
        extraInIndex = List.copyOf(extraInIndex);
    }

    public boolean consistent() {
        return missingFromIndex.isEmpty() && extraInIndex.isEmpty();
    }
}
