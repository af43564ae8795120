package dev.engram.proxy.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TextCleanerTest {
    @Test
    void stripsAnsiEscapes() {
        assertEquals("ERROR failed\n", TextCleaner.clean("\u001b[31mERROR\u001b[0m failed\n"));
    }

    @Test
    void collapsesRepeatedLinesWithACount() {
        assertEquals("ok [x3]\ndone", TextCleaner.clean("ok\nok\nok\ndone"));
    }

    @Test
    void collapsesInnerSpaceRunsButKeepsIndentation() {
        assertEquals("  key: value", TextCleaner.clean("  key:  value"));
    }

    @Test
    void collapsesBlankLineRuns() {
        assertEquals("a\n\nb", TextCleaner.clean("a\n\n\n\n\nb"));
    }

    @Test
    void dropsBoilerplateAndScripts() {
        String out = TextCleaner.clean("Skip to content\nReal text\n<script>alert(1)</script>\nAccept all cookies\n");
        assertEquals("Real text\n\n", out);
        assertFalse(out.contains("alert"));
    }

    @Test
    void dropsARepeatedLongParagraph() {
        String p = "This paragraph is long enough to count as a repeated block of text.";
        assertEquals(p + "\n\nother", TextCleaner.clean(p + "\n\n" + p + "\n\nother"));
    }

    @Test
    void neverChangesTheInsideOfCodeBlocks() {
        String code = "```\n\u001b[31mred\u001b[0m  two  spaces\nsame\nsame\n\n\n\nend\n```\n";
        assertEquals("intro\n" + code + "outro\n", TextCleaner.clean("intro\n" + code + "outro\n"));
    }

    @Test
    void isIdempotentAndNeverLengthens() {
        String messy = "\u001b[1mA\u001b[0m  b\nx\nx\nx\n\n\n\n```\nkeep  this\n```\ny   z\n";
        String once = TextCleaner.clean(messy);
        assertEquals(once, TextCleaner.clean(once));
        assertTrue(once.length() <= messy.length());
    }

    /** The one-pass block remover against the regex it replaced, on random tag soup (seed in the message). */
    @Test
    void scriptAndStyleRemovalMatchesTheRegexItReplaced() {
        Pattern oracle = Pattern.compile("(?is)<(script|style)\\b[^>]*>.*?</\\1\\s*>");
        String[] pieces = {"<script>", "<SCRIPT type=x>", "</script>", "</Script \n>", "</script", "<scripts>", "<style>",
            "</style>", "<style media=a>", "</STYLE>", "<", ">", "</", "text ", "\n", "<scriptä>", "<script_x>", " ", "<p>"};
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(14);
            for (int j = 0; j < n; j++) sb.append(pieces[random.nextInt(pieces.length)]);
            String text = sb.toString();
            assertEquals(oracle.matcher(text).replaceAll(""), TextCleaner.withoutScriptAndStyleBlocks(text),
                    "seed " + seed + ", text: " + text);
        }
    }
}
