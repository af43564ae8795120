package dev.engram.proxy.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
