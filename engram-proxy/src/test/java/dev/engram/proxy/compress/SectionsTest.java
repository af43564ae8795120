package dev.engram.proxy.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Sections of texts without headings: JSON by path range, logs by record, titles without escapes. */
class SectionsTest {
    private static void assertCovers(String text, List<Section> sections) {
        assertEquals(text, sections.stream().map(s -> text.substring(s.start(), s.end())).collect(Collectors.joining()));
    }

    private static String prettyArray(int items) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < items; i++) {
            sb.append("  {\n    \"id\": ").append(i).append(",\n    \"name\": \"item-").append(i)
                    .append("\",\n    \"description\": \"a fairly long description of item ").append(i).append("\"\n  }")
                    .append(i + 1 < items ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }

    @Test
    void aJsonArrayIsCutBetweenElementsAndTitledByTheirIndexRange() {
        String json = prettyArray(300);
        List<Section> sections = Sections.split(json);
        assertCovers(json, sections);
        assertTrue(sections.size() >= json.length() / Sections.TARGET_CHARS, sections.size() + " sections");
        assertTrue(sections.get(0).title().startsWith("[0.."), sections.get(0).title());
        assertTrue(sections.get(sections.size() - 1).title().endsWith("..299]"), sections.get(sections.size() - 1).title());
        int next = 0;
        for (Section s : sections) {
            // every section after the first starts at an element's line, and the ranges follow each other
            if (s.start() > 0) assertTrue(json.startsWith("  {\n    \"id\": " + next + ",", s.start()), s.title());
            assertTrue(s.title().matches("\\[" + next + "\\.\\.\\d+]"), s.title() + " should start at " + next);
            next = Integer.parseInt(s.title().replaceAll("^\\[\\d+\\.\\.(\\d+)]$", "$1")) + 1;
        }
        assertEquals(300, next);
    }

    @Test
    void aJsonObjectIsCutInsideItsLargeMembersNeverAcrossThem() {
        String json = CompressFixtures.nestedJson(4, 120); // minified: cuts fall right at the members
        List<Section> sections = Sections.split(json);
        assertCovers(json, sections);
        for (int g = 0; g < 4; g++) {
            String group = "group" + g + ".";
            List<Section> own = sections.stream().filter(s -> s.title().startsWith(group)).toList();
            assertTrue(own.size() >= 2, group + " is split: " + own);
            assertTrue(own.get(0).title().startsWith(group + "key0 .. "), own.get(0).title());
            assertTrue(own.get(own.size() - 1).title().endsWith(" .. key119"), own.get(own.size() - 1).title());
        }
        // even pieces: no remnant much smaller than the others
        int smallest = sections.stream().mapToInt(Section::size).min().orElseThrow();
        assertTrue(smallest > Sections.TARGET_CHARS / 3, "smallest section " + smallest);
    }

    @Test
    void aSingleKeyWrapperIsCutInsideLikeItsContent() {
        // {"data": {"items": [...]}}: the usual shape of an API or GraphQL answer
        String json = "{\"data\": {\"items\": " + prettyArray(300) + "}}";
        List<Section> sections = Sections.split(json);
        assertCovers(json, sections);
        assertTrue(sections.size() >= json.length() / Sections.TARGET_CHARS, sections.size() + " sections");
        assertTrue(sections.get(0).title().startsWith("data.items[0.."), sections.get(0).title());
        assertTrue(sections.get(sections.size() - 1).title().endsWith("..299]"), sections.get(sections.size() - 1).title());
    }

    @Test
    void textThatOnlyLooksLikeJsonIsCutAsText() {
        String log = "[INFO] not json, a log line that goes on for a while\n".repeat(200);
        List<Section> sections = Sections.split(log);
        assertCovers(log, sections);
        assertTrue(sections.size() > 1);
        assertEquals("[INFO] not json, a log line that goes on for a while", sections.get(1).title());
    }

    @Test
    void deeplyNestedJsonStillSplitsWithoutOverflowingTheStack() {
        String deep = "[".repeat(50_000) + "]".repeat(50_000);
        assertCovers(deep, Sections.split(deep));
        String wide = "{\"a\":" + "[".repeat(40) + prettyArray(100) + "]".repeat(40) + ",\"b\":1}";
        assertCovers(wide, Sections.split(wide));
    }

    @Test
    void randomJsonIsAlwaysCoveredExactly() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 30; round++) {
            String json = randomJson(random, 0);
            assertEquals(json, Sections.split(json).stream().map(s -> json.substring(s.start(), s.end()))
                    .collect(Collectors.joining()), "reproduce with -Dengram.seed=" + seed);
        }
    }

    private static String randomJson(Random random, int depth) {
        int kind = depth > 3 ? 2 + random.nextInt(2) : random.nextInt(4);
        if (kind == 0 || kind == 1) {
            int n = random.nextInt(depth == 0 ? 60 : 10);
            StringBuilder sb = new StringBuilder(kind == 0 ? "[" : "{");
            for (int i = 0; i < n; i++) {
                if (i > 0) sb.append(random.nextBoolean() ? ",\n  " : ",");
                if (kind == 1) sb.append("\"k\\\"").append(i).append("\": ");
                sb.append(randomJson(random, depth + 1));
            }
            return sb.append(kind == 0 ? "]" : "}").toString();
        }
        return kind == 2 ? "\"s" + "x]},".repeat(random.nextInt(200)) + "\"" : String.valueOf(random.nextInt());
    }

    @Test
    void aLogWithoutBlankLinesIsCutBeforeItsRecordsAndTitledWithoutEscapes() {
        StringBuilder log = new StringBuilder();
        for (int c = 0; c < 40; c++) {
            log.append("* \u001b[33mcommit ").append(String.format("%040x", c)).append("\u001b[m\n")
                    .append("\u001b[31m|\u001b[m Author: someone <a@b.example>\n\u001b[31m|\u001b[m \n")
                    .append("\u001b[31m|\u001b[m     Subject of change ").append(c).append('\n');
            for (int f = 0; f < c % 7 + 2; f++) log.append("\u001b[31m|\u001b[m  src/File").append(f).append(".java | 3 +-\n");
        }
        String text = log.toString();
        List<Section> sections = Sections.split(text);
        assertCovers(text, sections);
        assertTrue(sections.size() > 2);
        for (Section s : sections) {
            assertTrue(s.title().startsWith("* commit "), s.title());
            assertFalse(s.title().contains("\u001b"), s.title());
        }
    }

    @Test
    void proseIsStillCutAtParagraphs() {
        String prose = CompressFixtures.prose(300);
        for (Section s : Sections.split(prose)) assertTrue(prose.startsWith("Note ", s.start()), s.title());
    }

    @Test
    void theRecordKeyIsTheFirstWordAfterMarksAndEscapes() {
        assertEquals("commit", Sections.recordKey("| * | \u001b[33mcommit abc\u001b[m\n", 0));
        assertEquals("Note", Sections.recordKey("x\nNote 12: text\n", 2));
        assertEquals("", Sections.recordKey("| |\n", 0));
    }
}
