package dev.engram.engine.lifecycle;

/**
 * A second opinion on a pair of memories the deterministic {@link ContradictionCheck} could not decide: an NLI
 * model or an OpenAI-compatible chat model (engram-mcp implements it over its LLM client). The engine never deletes
 * on a judge's word: a {@link Verdict#CONTRADICTION} only links the pair, lowers the older one and reports it.
 */
@FunctionalInterface
public interface ContradictionJudge {
    enum Verdict {
        /** They cannot both be true. */
        CONTRADICTION,
        /** One follows from the other (or they say the same). */
        ENTAILMENT,
        /** Neither: about different things, or compatible. */
        UNRELATED
    }

    /**
     * The verdict on {@code older} against {@code newer} (two memories' contents). Throws a RuntimeException when it
     * cannot answer (down, slow, nonsense); the step then counts the pair as undecided and moves on.
     */
    Verdict judge(String older, String newer);
}
