package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.CompressionMode;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Characters outside the BMP (emoji, CJK Extension B) are two Java chars: no section, chunk, title,
 * preview or footer may hold one half of such a pair (the probe's defect #1: Korean text with emoji
 * and no line breaks was cut at exact 2,000-char offsets).
 */
class NonBmpTextTest {
    /** Korean words and emoji with spaces but no line break, as the probe's upstream returned. */
    static String koreanWithEmoji(int chars) {
        StringBuilder sb = new StringBuilder();
        String[] words = {"한국어", "텍스트", "😀🎉", "테스트", "𠀀𠀁", "문장입니다."};
        for (int i = 0; sb.length() < chars; i++) sb.append(words[i % words.length]).append(i % 7 == 6 ? "" : " ");
        return sb.toString();
    }

    /** Emoji only: no space, no line, every offset of odd parity splits a pair. */
    static String emojiOnly(int pairs) {
        return "😀".repeat(pairs);
    }

    static void assertValidUnicode(String s, String what) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                assertTrue(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)), what + ": lone high surrogate at " + i);
                i++;
            } else {
                assertFalse(Character.isLowSurrogate(c), what + ": lone low surrogate at " + i);
            }
        }
    }

    @Test
    void sectionsAndTheirTitlesNeverSplitAPairAndStillCoverTheText() {
        for (String text : List.of(koreanWithEmoji(9_000), koreanWithEmoji(20_001), emojiOnly(5_001))) {
            List<Section> sections = Sections.split(text);
            assertTrue(sections.size() > 2, sections.size() + " sections");
            assertEquals(text, sections.stream().map(s -> text.substring(s.start(), s.end())).collect(Collectors.joining()));
            for (Section s : sections) {
                assertValidUnicode(text.substring(s.start(), s.end()), s.id());
                assertValidUnicode(s.title(), s.id() + "'s title");
            }
        }
    }

    @Test
    void aTextWithSpacesIsCutAfterAWord() {
        String text = koreanWithEmoji(9_000);
        for (Section s : Sections.split(text)) {
            if (s.end() < text.length()) assertEquals(' ', text.charAt(s.end() - 1), s.id() + " ends mid-word");
        }
    }

    @Test
    void everyStrategysAnswerAndEveryChunkIsValidUnicode() {
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);
        String json;
        try {
            json = MAPPER.writeValueAsString(Map.of("items", List.of(koreanWithEmoji(3_001), emojiOnly(1_501), koreanWithEmoji(4_003)),
                    "note", emojiOnly(301), "more", Map.of("a", emojiOnly(99), "b", List.of(1, 2, 3))));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        for (String text : List.of(koreanWithEmoji(9_000), emojiOnly(10_001), json)) {
            for (CompressionMode mode : CompressionMode.values()) {
                if (mode == CompressionMode.NONE || mode == CompressionMode.LLM_SUMMARY) continue;
                CompressionOutcome out = compressor.compress("s", "t", text, TextCleaner.clean(text), 4001, mode);
                assertValidUnicode(out.text(), mode + " on " + text.length() + " chars");
                StoredResult stored = store.get(out.key()).orElseThrow();
                for (Section s : stored.sections()) assertValidUnicode(s.title(), mode + " " + s.id() + "'s title");
                // read_more from 0 with odd limits rebuilds the original, each chunk and footer valid
                StringBuilder back = new StringBuilder();
                int offset = 0;
                for (int guard = 0; guard < 10_000; guard++) {
                    String chunk = ProgressiveChunks.chunk(stored, offset, 1_999);
                    assertValidUnicode(chunk, "read_more at " + offset);
                    int at = chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
                    back.append(chunk, 0, at);
                    offset += at;
                    if (chunk.contains("has_more=false")) break;
                }
                assertEquals(text, back.toString());
            }
        }
    }

    @Test
    void anOffsetInsideAPairStartsAtItsFirstHalf() {
        String text = emojiOnly(3_000);
        String chunk = ProgressiveChunks.chunk(new StoredResult("k", "s", "t", text, Sections.split(text)), 1, 1);
        assertTrue(chunk.startsWith("😀" + Footers.PROGRESSIVE_FOOTER_TOKEN + "0-2/"), chunk);
    }

    @Test
    void cutsAndClipsStopOnACodePoint() {
        assertEquals(1, TextCut.atCodePoint("a😀", 2));
        assertEquals(3, TextCut.atCodePoint("a😀", 3));
        assertEquals("a", TextCut.head("a😀b", 2));
        assertEquals("a…", TextCut.clip("a😀b", 2));
        assertEquals("one two…", TextCut.clipAtWord("one two three", 10));
        assertEquals("😀😀…", TextCut.clipAtWord("😀😀😀", 5));
    }
}
