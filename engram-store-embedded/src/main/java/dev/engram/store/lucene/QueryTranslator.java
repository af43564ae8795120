package dev.engram.store.lucene;

import dev.engram.spi.IndexQuery;
import java.util.Collection;
import java.util.Optional;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Turns an {@link IndexQuery} into a Lucene query. Agent text is analysed, never parsed: the classic
 * QueryParser would treat {@code : " ( [ * ~ ^} in a question as syntax and fail on half of them.
 */
final class QueryTranslator {
    /** Distinct terms per field; 4 sources x 3 analysers x 32 stays under Lucene's 1024-clause limit. */
    static final int MAX_TERMS = 32;

    private final TextAnalysis analysis;

    QueryTranslator(TextAnalysis analysis) {
        this.analysis = analysis;
    }

    /** The query, or empty when the text yields no term (blank, or punctuation only). */
    Optional<Query> translate(IndexQuery q) {
        if (q.text().isBlank()) return Optional.empty();
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        int clauses = 0;
        for (MemoryDocuments.Source source : MemoryDocuments.sources()) {
            String normalised = source.normalise(q.text());
            for (String analyser : TextAnalysis.ANALYSERS) {
                String field = source.field(analyser);
                for (String term : analysis.terms(field, normalised, MAX_TERMS)) {
                    text.add(new BoostQuery(new TermQuery(new Term(field, term)), source.boost()), Occur.SHOULD);
                    clauses++;
                }
            }
        }
        if (clauses == 0) return Optional.empty();
        BooleanQuery.Builder all = new BooleanQuery.Builder().add(text.build(), Occur.MUST);
        filterAny(all, MemoryDocuments.ZONE, q.zones());
        filterAny(all, MemoryDocuments.TYPE, q.types().stream().map(Enum::name).toList());
        filterAny(all, MemoryDocuments.STATUS, q.statuses().stream().map(Enum::name).toList());
        for (String tag : q.tags()) all.add(new TermQuery(new Term(MemoryDocuments.TAG, tag)), Occur.FILTER);
        if (q.from() != null || q.to() != null) {
            long from = q.from() == null ? Long.MIN_VALUE : q.from().toEpochMilli();
            long to = q.to() == null ? Long.MAX_VALUE : q.to().toEpochMilli();
            all.add(LongPoint.newRangeQuery(MemoryDocuments.CREATED, from, to), Occur.FILTER);
        }
        return Optional.of(all.build());
    }

    private static void filterAny(BooleanQuery.Builder b, String field, Collection<String> values) {
        if (values.isEmpty()) return;
        b.add(new TermInSetQuery(field, values.stream().map(BytesRef::new).toList()), Occur.FILTER);
    }
}
