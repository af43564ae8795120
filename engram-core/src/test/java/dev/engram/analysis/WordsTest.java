package dev.engram.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WordsTest {
    /** The regular expressions the word splitting was written with, kept here as its definition. */
    private static List<String> byRegex(String text) {
        List<String> out = new ArrayList<>();
        String spaced = text.replaceAll("(\\p{Ll})(\\p{Lu})", "$1 $2");
        for (String w : spaced.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) out.add(w);
        }
        return out;
    }

    private static List<String> runsByRegex(String text) {
        return Arrays.stream(text.split("[^\\p{L}\\p{N}]+")).filter(w -> !w.isEmpty()).toList();
    }

    @Test
    void accentsGoAndTheLettersStay() {
        assertEquals("Cafe Muller, Zoe Garcia, resume", Words.withoutAccents("Café Müller, Zoë García, résumé"));
        String ascii = "plain ascii text";
        assertSame(ascii, Words.withoutAccents(ascii), "ASCII is returned as it is, not normalised");
        assertEquals("김철수", java.text.Normalizer.normalize(Words.withoutAccents("김철수"), java.text.Normalizer.Form.NFC),
                "Hangul keeps its letters (as jamo)");
    }

    @Test
    void splitsCamelCaseDigitsAndScriptsAsTheRegexDid() {
        assertEquals(List.of("parse", "json", "v2", "handler"), Words.of("parseJSON-v2_handler"));
        assertEquals(List.of("foo", "bar", "baz"), Words.of("  fooBar.baz!"));
        assertEquals(List.of("한국어", "메모리", "x1"), Words.of("한국어 메모리, x1"));
        assertEquals(List.of(), Words.of("  -- ?! "));
        assertEquals(List.of(), Words.of(null));
        assertEquals(List.of("ab", "c", "d"), Words.runs("ab c\td"));
    }

    @Test
    void agreesWithTheRegexOnRandomUnicode() {
        // letters of several cases and scripts, digits and other numbers, marks, a supplementary letter and digit,
        // a dotted capital I (lowercases to two chars, the second a mark), separators and punctuation
        String[] pieces = {"a", "Z", "é", "É", "ǅ", "ʰ", "한", "字", "Ω", "ω", "İ", "ß", "7", "²", "Ⅻ", "٣", "\u0301", "\uD835\uDC00",
                "\uD835\uDFCE", "\uD83D\uDE00", " ", "-", "_", ".", "\t", "\n", "/", "'", "\u00A0", "\uD800"};
        Random random = new Random(42);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) sb.append(pieces[random.nextInt(pieces.length)]);
            String text = sb.toString();
            assertEquals(byRegex(text), Words.of(text), () -> "Words.of of " + text.codePoints().mapToObj(Integer::toHexString).toList());
            assertEquals(runsByRegex(text), Words.runs(text), () -> "Words.runs of " + text.codePoints().mapToObj(Integer::toHexString).toList());
        }
    }
}
