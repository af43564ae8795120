package dev.engram.engine;

/**
 * What recall may do to find candidates; {@link RecallSettings#steps()} holds the ones an engine runs
 * (all four by default). Mode {@code hybrid} runs every layer whatever the settings say.
 */
public enum RecallStep {
    /** L2: BM25 over the search index. */
    LEXICAL,
    /** L3: embeddings, when an embedder is configured and ready. */
    SEMANTIC,
    /** Expand the fused hits along edges ({@link RecallSettings#graphHops()} hops). */
    GRAPH,
    /**
     * Skip L3 when the lexical answer is already strong ({@link RecallSettings#stop()}); acts only when
     * both {@link #LEXICAL} and {@link #SEMANTIC} run.
     */
    CASCADE
}
