package dev.engram.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilterCollector;
import org.apache.lucene.search.FilterLeafCollector;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * Runs a text search with its zone, type, status and tag filters applied to the hits as they are collected, from a
 * bit set per segment and filter, instead of as a conjunction with the text. In a conjunction Lucene lets the cheaper
 * side lead: a zone's documents usually cost less than the postings of a query's dozen or two words, so the filter led
 * and every document of the zone was pushed into the disjunction's WAND scorer, which could then skip nothing. That was
 * most of a remember's near-duplicate search and of a recall's text search under issue 18's load (zones of 14-43% of
 * the memories). Collected this way, the disjunction leads and skips what cannot reach the top k, and the bound it skips
 * by is the k-th best hit that passed the filters, so the result is the same top k.
 *
 * <p>Only for a filter that passes at least {@link #MIN_SHARE} of the documents: collected this way, the disjunction
 * scores documents of every zone and the filter throws most of them away when it passes few, where leading with the
 * filter visits only its own. Measured on 100,000 generated documents, top 20 (a throwaway loop, docs/benchmarks.md,
 * "The record cache under a stream of writes"): a filter passing 1% took 2.8-3.9 times as long collected this way as in
 * the conjunction, 5% 1.5-1.6 times, 14% 0.92-0.96 times and 43% 0.52-0.58 times, for queries of 3 and of 24 words.
 *
 * <p>A segment's documents never change their zone, type, status or tags (an update adds a new document), so a bit set
 * holds for the segment's life; deleted documents are left to the text search, which never returns them. Bit sets are
 * kept per segment core ({@link SegmentCache}) and dropped when it closes. A query with anything else at its top level (a creation-time
 * range, which changes with every query) is searched as Lucene plans it.
 */
final class PostFilter {
    /** The least share of the live documents a filter must pass to be applied as hits are collected; under it, the conjunction. */
    static final double MIN_SHARE = 1.0 / 8;

    /** Bit sets kept in all: a store has a handful of zones, types and status sets, over ten or so segments. */
    private static final int MAX_KEPT = 1_024;

    /** The documents of one segment that pass one filter; {@code bits} null when none does. */
    private record Passing(FixedBitSet bits) {
    }

    private final SegmentCache<Query, Passing> kept = new SegmentCache<>(MAX_KEPT);

    /**
     * The top {@code k} of {@code translated} ({@link QueryTranslator}'s shape: the text as MUST, filters as FILTER);
     * {@code coverage} is of the searcher's reader and counts what the filters pass.
     */
    TopDocs search(IndexSearcher searcher, Query translated, int k, FilterCoverage coverage) throws IOException {
        Query text = null;
        List<Query> filters = new ArrayList<>();
        if (translated instanceof BooleanQuery b) {
            for (BooleanClause c : b.clauses()) {
                if (c.getOccur() == Occur.MUST && text == null) {
                    text = c.getQuery();
                } else if (c.getOccur() == Occur.FILTER && (c.getQuery() instanceof TermInSetQuery || c.getQuery() instanceof TermQuery)) {
                    filters.add(c.getQuery());
                } else {
                    text = null;
                    break;
                }
            }
        }
        if (text == null || filters.isEmpty()) return searcher.search(translated, new TopScoreDocCollectorManager(k, k));
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        for (Query f : filters) all.add(f, Occur.FILTER);
        Query filter = all.build();
        int live = searcher.getIndexReader().numDocs();
        if (coverage.count(filter) < MIN_SHARE * live) return searcher.search(translated, new TopScoreDocCollectorManager(k, k));
        Weight[] weight = new Weight[1]; // made on the first segment whose bits are not kept yet
        return searcher.search(text, new Manager(k, leaf -> bits(searcher, filter, weight, leaf)));
    }

    /** The documents of {@code leaf} that pass {@code filter}, or null when none does. */
    private Bits bits(IndexSearcher searcher, Query filter, Weight[] weight, LeafReaderContext leaf) throws IOException {
        Optional<Passing> known = kept.get(leaf.reader(), filter, () -> passing(searcher, filter, weight, leaf));
        return (known.isPresent() ? known.get() : passing(searcher, filter, weight, leaf)).bits(); // no core key: not kept
    }

    private static Passing passing(IndexSearcher searcher, Query filter, Weight[] weight, LeafReaderContext leaf) throws IOException {
        if (weight[0] == null) {
            weight[0] = searcher.createWeight(searcher.rewrite(new ConstantScoreQuery(filter)), ScoreMode.COMPLETE_NO_SCORES, 1f);
        }
        Scorer scorer = weight[0].scorer(leaf);
        if (scorer == null) return new Passing(null);
        FixedBitSet out = new FixedBitSet(leaf.reader().maxDoc());
        DocIdSetIterator it = scorer.iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) out.set(doc);
        return new Passing(out.cardinality() == 0 ? null : out);
    }

    /** For tests: bit sets kept. */
    int kept() {
        return kept.size();
    }

    @FunctionalInterface
    private interface LeafBits {
        Bits of(LeafReaderContext leaf) throws IOException;
    }

    /** Lucene's top-k collector, fed only the hits that pass the filter. */
    private record Manager(TopScoreDocCollectorManager top, LeafBits bits) implements CollectorManager<Filtered, TopDocs> {
        Manager(int k, LeafBits bits) {
            this(new TopScoreDocCollectorManager(k, k), bits);
        }

        @Override
        public Filtered newCollector() throws IOException {
            return new Filtered(top.newCollector(), bits);
        }

        @Override
        public TopDocs reduce(Collection<Filtered> collectors) throws IOException {
            List<TopScoreDocCollector> inner = new ArrayList<>(collectors.size());
            for (Filtered f : collectors) inner.add(f.top);
            return top.reduce(inner);
        }
    }

    private static final class Filtered extends FilterCollector {
        final TopScoreDocCollector top;
        private final LeafBits bits;

        Filtered(TopScoreDocCollector top, LeafBits bits) {
            super(top);
            this.top = top;
            this.bits = bits;
        }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            Bits pass = bits.of(context);
            if (pass == null) throw new CollectionTerminatedException(); // no document of this segment passes: skip it
            return new FilterLeafCollector(super.getLeafCollector(context)) {
                @Override
                public void collect(int doc) throws IOException {
                    if (pass.get(doc)) in.collect(doc);
                }
            };
        }
    }
}
