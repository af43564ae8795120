package dev.engram.analysis;

/**
 * The writing system most of a text's letters belong to, in toon-memory's families: a family holds when
 * more than 30% of the letters are in it (Han, kana and Hangul count together as CJK), else the text is
 * Latin; a text without letters has none. Recall uses it to prefer memories written like the query (a
 * Spanish question, an English memory and a Korean one are not equally likely answers).
 */
public enum ScriptFamily {
    NONE, CJK, CYRILLIC, ARABIC, GREEK, HEBREW, DEVANAGARI, LATIN;

    private static final double SHARE = 0.3;

    public static ScriptFamily of(String text) {
        int total = 0, cjk = 0, cyrillic = 0, arabic = 0, greek = 0, hebrew = 0, devanagari = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (!Character.isLetter(c)) continue;
            total++;
            if (c >= 0x4e00 && c <= 0x9fff || c >= 0x3040 && c <= 0x30ff || c >= 0xac00 && c <= 0xd7af) cjk++;
            else if (c >= 0x0400 && c <= 0x04ff) cyrillic++;
            else if (c >= 0x0600 && c <= 0x06ff) arabic++;
            else if (c >= 0x0370 && c <= 0x03ff) greek++;
            else if (c >= 0x0590 && c <= 0x05ff) hebrew++;
            else if (c >= 0x0900 && c <= 0x097f) devanagari++;
        }
        if (total == 0) return NONE;
        if (cjk > SHARE * total) return CJK;
        if (cyrillic > SHARE * total) return CYRILLIC;
        if (arabic > SHARE * total) return ARABIC;
        if (greek > SHARE * total) return GREEK;
        if (hebrew > SHARE * total) return HEBREW;
        if (devanagari > SHARE * total) return DEVANAGARI;
        return LATIN;
    }
}
