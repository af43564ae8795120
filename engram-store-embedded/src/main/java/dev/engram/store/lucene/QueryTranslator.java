package dev.engram.store.lucene;

import dev.engram.analysis.StopWords;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Turns an {@link IndexQuery} into a Lucene query. Agent text is analysed, never parsed: the classic
 * QueryParser would treat {@code : " ( [ * ~ ^} in a question as syntax and fail on half of them.
 */
final class QueryTranslator {
    /** Distinct terms per field; 6 fields x 32 stays under Lucene's 1024-clause limit. */
    static final int MAX_TERMS = 32;

    /**
     * Weight of an English function word ({@link StopWords}) against any other query word. In a short
     * chat turn a match on "did" or "you" counted as much as a match on a name; on LoCoMo dev, weights
     * 0, 0.1, 0.2, 0.35 and 0.5 all beat 1 by 0.04-0.06 R@10 of the index's own BM25 and tied within
     * 0.005 on the engine's best modes (docs/benchmarks.md §6). A fifth rather than nothing, so the
     * words still tell "server down" from "server" and "where clause" from "clause" in an agent's
     * short queries.
     */
    static final float FUNCTION_WORD_WEIGHT = 0.2f;

    private final TextAnalysis analysis;

    QueryTranslator(TextAnalysis analysis) {
        this.analysis = analysis;
    }

    /**
     * The query, or empty when the text yields no term (blank, or punctuation only). Filters that
     * every document passes are left out (see {@link FilterCoverage}).
     */
    Optional<Query> translate(IndexQuery q, FilterCoverage coverage) throws IOException {
        return translate(q, coverage, null);
    }

    /**
     * As above, with each term's per-segment states looked up now in {@code top}, the reader the query will run on
     * ({@link TermLookup}); null leaves the lookup to each term query.
     */
    Optional<Query> translate(IndexQuery q, FilterCoverage coverage, IndexReaderContext top) throws IOException {
        if (q.text().isBlank()) return Optional.empty();
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        int clauses = 0;
        boolean contentOnly = q.match() == IndexQuery.Match.CONTENT_WORDS;
        // content words: one field and one analyser (most of a remember's search time)
        List<MemoryDocuments.Source> sources = contentOnly ? List.of(MemoryDocuments.Source.CONTENT) : MemoryDocuments.sources();
        for (MemoryDocuments.Source source : sources) {
            String normalised = source.normalise(q.text());
            for (String analyser : contentOnly ? List.of(TextAnalysis.STANDARD) : source.analysers()) {
                String field = source.field(analyser);
                List<String> terms = analysis.terms(field, normalised, MAX_TERMS);
                Map<String, TermStates> states = top == null || terms.isEmpty() ? Map.of() : TermLookup.states(top, field, terms);
                for (String term : terms) {
                    float weight = StopWords.contains(term) ? FUNCTION_WORD_WEIGHT : 1f;
                    TermStates known = states.get(term);
                    TermQuery query = known == null ? new TermQuery(new Term(field, term)) : new TermQuery(new Term(field, term), known);
                    text.add(new BoostQuery(query, source.boost() * weight), Occur.SHOULD);
                    clauses++;
                }
            }
        }
        if (clauses == 0) return Optional.empty();
        BooleanQuery.Builder all = new BooleanQuery.Builder().add(text.build(), Occur.MUST);
        addFilters(all, coverage, q.zones(), q.types(), q.tags(), q.statuses(), q.from(), q.to());
        return Optional.of(all.build());
    }

    /**
     * The filters of a {@link VectorQuery}, as one query for {@link KnnFloatVectorQuery}'s filter
     * argument (so they apply inside the graph search), or empty when the query has none or
     * every document passes them (kNN then takes its faster unfiltered path).
     */
    static Optional<Query> filter(VectorQuery q, FilterCoverage coverage) throws IOException {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        addFilters(b, coverage, q.zones(), q.types(), q.tags(), q.statuses(), q.from(), q.to());
        BooleanQuery filter = b.build();
        // a BooleanQuery without clauses matches nothing, not everything
        return filter.clauses().isEmpty() ? Optional.empty() : Optional.of(filter);
    }

    /** The filter clauses text and vector queries share: any of the zones, types and statuses, all tags, created in [from, to]. */
    private static void addFilters(BooleanQuery.Builder b, FilterCoverage coverage, Set<String> zones, Set<MemoryType> types,
                                   Set<String> tags, Set<MemoryStatus> statuses, Instant from, Instant to) throws IOException {
        filterAny(b, coverage, MemoryDocuments.ZONE, zones);
        filterAny(b, coverage, MemoryDocuments.TYPE, types.stream().map(Enum::name).toList());
        filterAny(b, coverage, MemoryDocuments.STATUS, statuses.stream().map(Enum::name).toList());
        for (String tag : tags) b.add(new TermQuery(new Term(MemoryDocuments.TAG, tag)), Occur.FILTER);
        if (from != null || to != null) {
            long fromMillis = from == null ? Long.MIN_VALUE : from.toEpochMilli();
            long toMillis = to == null ? Long.MAX_VALUE : to.toEpochMilli();
            b.add(LongPoint.newRangeQuery(MemoryDocuments.CREATED, fromMillis, toMillis), Occur.FILTER);
        }
    }

    private static void filterAny(BooleanQuery.Builder b, FilterCoverage coverage, String field, Collection<String> values)
            throws IOException {
        if (values.isEmpty() || coverage.passesAll(field, values)) return;
        b.add(new TermInSetQuery(field, values.stream().map(BytesRef::new).toList()), Occur.FILTER);
    }
}
