package dev.engram.store.lucene;

import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * Which zone, type and status filters every document of one reader passes. Such a filter drops
 * nothing, yet walks its postings on every search: Lucene caches filters only for segments of 10,000
 * documents or more. The answer is asked on every search and changes only with the reader, so it is
 * kept per reader; a term lookup allocates a terms enumerator per segment, which was a sixteenth of a
 * recall's allocation when it was asked each time. The documents a vector search's filter lets through are
 * counted here too ({@link #count}), for the same reason: the vector search shares its neighbours out among
 * the segments by them, on every search, and a zone's count changes only with the reader.
 */
final class FilterCoverage {
    /** Distinct filters remembered per reader: a store has a handful of zones and one status set. */
    private static final int MAX_KNOWN = 256;

    private final IndexReader reader;
    private final Map<String, Boolean> known = new ConcurrentHashMap<>();
    private final Map<Query, Long> counts = new ConcurrentHashMap<>();

    FilterCoverage(IndexReader reader) {
        this.reader = reader;
    }

    IndexReader reader() {
        return reader;
    }

    /**
     * Whether every document holds one of {@code values} in {@code field}, a field every document has
     * exactly once (zone, type, status): then their document frequencies add up to {@code maxDoc},
     * deleted documents counting on both sides, so the answer is exact and at worst keeps a filter that
     * could go.
     */
    boolean passesAll(String field, Collection<String> values) throws IOException {
        String key = field + '\u0000' + String.join("\u0000", new TreeSet<>(values));
        Boolean cached = known.get(key);
        if (cached != null) return cached;
        long documents = 0;
        for (String v : values) documents += reader.docFreq(new Term(field, v));
        boolean all = documents == reader.maxDoc();
        if (known.size() < MAX_KNOWN) known.put(key, all);
        return all;
    }

    /** How many live documents of the reader {@code filter} matches, counted once per reader and filter. */
    long count(Query filter) throws IOException {
        Long cached = counts.get(filter);
        if (cached != null) return cached;
        long n = new IndexSearcher(reader).count(filter);
        if (counts.size() < MAX_KNOWN) counts.put(filter, n);
        return n;
    }
}
