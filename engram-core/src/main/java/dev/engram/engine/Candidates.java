package dev.engram.engine;

import java.util.List;
import java.util.Map;

/**
 * What the retrieval layers proposed: per memory id its {@link Signals}, the layers that ran and,
 * when the cascade stopped early or a layer could not run, why; {@code stop} is what the stop rule
 * read (null when it did not run).
 */
record Candidates(Map<String, Signals> byId, List<String> layers, List<String> notes, StopSignal stop) {

    /**
     * One candidate's evidence: {@code lexical} is BM25 scaled within this query (absent
     * when it did not match), {@code semantic} the cosine scaled likewise, {@code fused} their
     * weighted combination, {@code graph} what edges from other hits added (summed over the hits, so it
     * may pass 1; relevance is capped at 1), {@code exact} an id or key
     * that equals the query.
     */
    record Signals(Double lexical, Double semantic, double fused, double graph, String graphVia, boolean exact) {
        double relevance() {
            return exact ? 1.0 : Math.min(1.0, fused + graph);
        }
    }
}
