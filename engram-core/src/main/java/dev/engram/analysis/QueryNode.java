package dev.engram.analysis;

import java.util.List;

/**
 * The tree of a parsed {@link QueryString}. Leaves hold folded words (lower case, accents dropped,
 * see {@link QueryString#fold}); {@code boost} is kept for display only, Engram's ranking has no
 * per-term weights.
 */
public sealed interface QueryNode {
    /** How a term matches a word of the text. */
    enum Kind {
        /** The same word (a trailing plural s/es is ignored on both sides). */
        WORD,
        /** {@code iapt*}: a word starting with the text. */
        PREFIX,
        /** {@code te?t}, {@code *script}: {@code ?} one character, {@code *} any run. */
        WILDCARD,
        /** {@code typscript~} / {@code ~1}: a word within {@code fuzziness} edits (AUTO: 0, 1 or 2 by length). */
        FUZZY
    }

    /** One term; a term with several word parts ({@code iaptic-server}) is parsed as a {@link Phrase}. */
    record Term(String text, Kind kind, int fuzziness, double boost) implements QueryNode {
    }

    /** Words in order, at most {@code slop} other words in between in all. */
    record Phrase(List<String> words, int slop, double boost) implements QueryNode {
        public Phrase {
            words = List.copyOf(words);
        }
    }

    record And(List<QueryNode> all) implements QueryNode {
        public And {
            all = List.copyOf(all);
        }
    }

    record Or(List<QueryNode> any) implements QueryNode {
        public Or {
            any = List.copyOf(any);
        }
    }

    record Not(QueryNode negated) implements QueryNode {
    }
}
