package dev.engram.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StopWordsTest {
    @Test
    void aQuestionKeepsWhatItIsAbout() {
        List<String> content = Words.of("When did Caroline go to the LGBTQ support group?").stream()
                .filter(w -> !StopWords.contains(w)).toList();
        assertEquals(List.of("caroline", "go", "lgbtq", "support", "group"), content);
    }

    @Test
    void contractionsAreCoveredWholeAndSplit() {
        assertTrue(StopWords.contains("didn't"), "the standard tokenizer keeps the apostrophe");
        assertTrue(StopWords.contains("didn"), "Words splits at it");
        assertTrue(StopWords.contains("didn\u2019t"), "a typographic apostrophe counts as a plain one");
    }

    @Test
    void wordsThatAreAlsoNamesMonthsOrPlacesStay() {
        for (String w : List.of("may", "us", "won", "don")) assertFalse(StopWords.contains(w), w);
    }
}
