package dev.engram.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * The per-segment states of a field's query terms, looked up with one terms enum per segment. A term query left
 * to itself builds its states with a new enum for each segment ({@code TermStates.build}), so a recall, whose
 * query holds every word in six fields, opened words × fields × segments enums: the largest part of what a recall
 * allocated (JFR). Seeking one enum through the field's terms in sorted order finds the same states, and term
 * queries built with them ({@code new TermQuery(term, states)}) score exactly as before.
 */
final class TermLookup {
    private TermLookup() {
    }

    private record Lookup(BytesRef bytes, TermStates states) {
    }

    /** Each of {@code terms} to its states in {@code top}, a term in no segment to empty states. */
    static Map<String, TermStates> states(IndexReaderContext top, String field, List<String> terms) throws IOException {
        Map<String, TermStates> out = new LinkedHashMap<>();
        List<Lookup> sorted = new ArrayList<>(terms.size());
        for (String t : terms) {
            if (out.containsKey(t)) continue;
            TermStates states = new TermStates(top);
            out.put(t, states);
            sorted.add(new Lookup(new BytesRef(t), states));
        }
        sorted.sort(Comparator.comparing(Lookup::bytes)); // the terms dictionary's order: each seek moves forwards
        for (LeafReaderContext leaf : top.leaves()) {
            Terms fieldTerms = leaf.reader().terms(field);
            if (fieldTerms == null) continue;
            TermsEnum e = fieldTerms.iterator();
            for (Lookup l : sorted) {
                if (e.seekExact(l.bytes())) l.states().register(e.termState(), leaf.ord, e.docFreq(), e.totalTermFreq());
            }
        }
        return out;
    }
}
