package dev.engram.analysis;

/**
 * Where the proxy may cut text: never between the two halves of a surrogate pair. A character
 * outside the Basic Multilingual Plane (an emoji, a CJK Extension B ideograph) is two Java chars;
 * a cut between them leaves a lone surrogate on each side, which is not valid Unicode: Python
 * clients fail to re-encode it and model APIs reject a request body that holds one. Every offset the
 * proxy cuts at (section bounds, chunk ends, titles, previews, labels) goes through here, and so do the pieces
 * an import makes of an over-long text.
 */
public final class TextCut {
    private TextCut() {
    }

    /** {@code at}, moved back one char when it falls inside a surrogate pair; clamped to {@code [0, length]}. */
    public static int atCodePoint(CharSequence s, int at) {
        int i = Math.max(0, Math.min(at, s.length()));
        if (i > 0 && i < s.length() && Character.isHighSurrogate(s.charAt(i - 1)) && Character.isLowSurrogate(s.charAt(i))) {
            return i - 1;
        }
        return i;
    }

    /** The longest prefix of {@code s} of at most {@code max} chars that ends on a code-point boundary. */
    public static String head(String s, int max) {
        return s.length() <= max ? s : s.substring(0, atCodePoint(s, max));
    }

    /** {@code s} when it fits in {@code max} chars, else its {@link #head} and an ellipsis. */
    public static String clip(String s, int max) {
        return s.length() <= max ? s : head(s, max) + "…";
    }

    /**
     * {@code s} when it fits in {@code max} chars, else a prefix ending at its last space after
     * {@code max / 2} (so a title does not stop mid-word; text without spaces, such as Chinese or a
     * long token, is cut at {@code max} on a code-point boundary), then an ellipsis.
     */
    public static String clipAtWord(String s, int max) {
        if (s.length() <= max) return s;
        int end = atCodePoint(s, max);
        for (int i = end; i > max / 2; i--) {
            if (s.charAt(i) == ' ') {
                end = i;
                break;
            }
        }
        return s.substring(0, end).stripTrailing() + "…";
    }
}
