package dev.engram.analysis;

import java.util.Set;

/**
 * English function words: the words of a query that say how it is asked, not what it is about
 * ("what did Caroline research?" is about Caroline and research). BM25 weighs them at a fifth of any
 * other word ({@code QueryTranslator.FUNCTION_WORD_WEIGHT}), and the cascade's stop rule does not ask
 * the top hit to hold them. On LoCoMo dev this raised the index's own BM25 from R@10 0.539 to 0.581
 * (docs/benchmarks.md §6): in short chat turns a match on "did" or "you" had weighed as much as a
 * match on a name.
 * <p>
 * Lowercase, in both of the forms text is split into: whole contractions as Lucene's standard
 * tokenizer keeps them ({@code didn't}), and the parts {@link Words} splits them into ({@code didn}).
 * Deliberately absent: function words that are also content words an agent searches for: {@code may}
 * (the month), {@code us} (the country), and the halves {@code won} and {@code don} of "won't" and
 * "don't" (a prize won, a person called Don).
 */
public final class StopWords {
    private static final Set<String> WORDS = Set.of(
            // articles, determiners, quantifiers
            "a", "an", "the", "this", "that", "these", "those", "each", "every", "either", "neither", "some", "any",
            "all", "both", "few", "more", "most", "other", "such", "no", "nor", "not", "only", "own", "same", "so",
            "than", "too", "very",
            // pronouns
            "i", "me", "my", "myself", "mine", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
            "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
            "they", "them", "their", "theirs", "themselves",
            // question words
            "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
            // auxiliaries and modals
            "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "do", "does",
            "did", "doing", "would", "should", "could", "ought", "will", "can", "shall", "might", "must",
            // prepositions and adverbs of place and sequence
            "of", "at", "by", "for", "with", "about", "against", "between", "into", "through", "during", "before",
            "after", "above", "below", "to", "from", "up", "down", "in", "out", "on", "off", "over", "under", "again",
            "further", "then", "once", "here", "there",
            // conjunctions
            "and", "but", "if", "or", "because", "as", "until", "while",
            // contractions, whole
            "i'm", "you're", "he's", "she's", "it's", "we're", "they're", "i've", "you've", "we've", "they've",
            "i'd", "you'd", "he'd", "she'd", "we'd", "they'd", "i'll", "you'll", "he'll", "she'll", "we'll",
            "they'll", "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "doesn't", "don't",
            "didn't", "won't", "wouldn't", "shan't", "shouldn't", "can't", "cannot", "couldn't", "mustn't", "let's",
            "that's", "who's", "what's", "here's", "there's", "when's", "where's", "why's", "how's",
            // what Words leaves of a contraction once split at the apostrophe
            "isn", "aren", "wasn", "weren", "hasn", "haven", "hadn", "doesn", "didn", "wouldn", "shan",
            "shouldn", "couldn", "mustn", "ll", "ve", "re");

    private StopWords() {
    }

    /** Whether {@code word} (lowercase) is a function word; a typographic apostrophe counts as {@code '}. */
    public static boolean contains(String word) {
        return WORDS.contains(word.indexOf('\u2019') < 0 ? word : word.replace('\u2019', '\''));
    }
}
