package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;

/**
 * How many characters the agent may get for one upstream result (issue 4: "at least 50% fewer tokens
 * on responses over 5 KB, small results untouched"). A result of at most {@code compressAboveChars}
 * keeps the server's {@code max_result_chars} as its budget, so it passes through unchanged when it
 * fits; a longer one gets at most {@code maxShare} of its own size, and never more than
 * {@code max_result_chars}. A fixed budget alone would let a result just over it keep nearly all its
 * tokens (a 9 KB text under an 8,000-char budget saved 48%).
 *
 * @param compressAboveChars results longer than this are always compressed
 * @param maxShare           the largest share of such a result the agent gets (1.0: only {@code max_result_chars} applies)
 */
public record ResultBudget(int compressAboveChars, double maxShare) {
    /** "Over 5 KB" read as over 5,000 characters: the lower reading, so results of 5,001..5,120 chars are covered too. */
    public static final int COMPRESS_ABOVE_CHARS = 5000;
    /**
     * Under one half with room to spare: the views are denser in tokens per character than the text
     * they replace (section ids, quotes, footers), and the estimate of 4 chars per token is rounded up.
     */
    public static final double MAX_SHARE = 0.45;
    public static final ResultBudget DEFAULT = new ResultBudget(COMPRESS_ABOVE_CHARS, MAX_SHARE);
    /** The smallest budget every strategy can fill (the smallest {@code max_result_chars} allowed). */
    public static final int MIN_CHARS = 500;
    /** The largest {@code max_result_chars} and compression threshold allowed. */
    public static final int MAX_CHARS = 1_000_000;

    public ResultBudget {
        if (compressAboveChars < MIN_CHARS || compressAboveChars > MAX_CHARS) {
            throw new InvalidArgumentException("ENGRAM_PROXY_COMPRESS_ABOVE_CHARS", "must be " + MIN_CHARS + ".." + MAX_CHARS + ", got "
                    + compressAboveChars);
        }
        if (!(maxShare > 0 && maxShare <= 1)) {
            throw new InvalidArgumentException("ENGRAM_PROXY_MAX_RESULT_SHARE", "must be over 0 and at most 1, got " + maxShare);
        }
    }

    /**
     * The most characters the agent gets for a result of {@code rawChars} under a server budget of
     * {@code maxResultChars}; the result passes through unchanged exactly when it is no longer than this.
     */
    public int forResult(int rawChars, int maxResultChars) {
        if (rawChars <= compressAboveChars) return maxResultChars;
        return Math.min(maxResultChars, Math.max(MIN_CHARS, (int) (rawChars * maxShare)));
    }
}
