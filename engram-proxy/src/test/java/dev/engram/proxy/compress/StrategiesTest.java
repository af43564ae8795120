package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static dev.engram.proxy.compress.CompressFixtures.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StrategiesTest {
    private static final int BUDGET = 4000;

    private static List<CompressionStrategy> all() {
        return List.of(new TruncateStrategy(), new SelectiveStrategy(), new ProgressiveStrategy(4000), new HybridStrategy(),
                new SchemaPruningStrategy(MAPPER), new FieldExtractionStrategy(MAPPER));
    }

    @Test
    void everyStrategyStaysWithinBudgetOnEveryShape() {
        for (String text : List.of(CompressFixtures.markdown(20, 5), CompressFixtures.prose(200),
                CompressFixtures.jsonArray(200), CompressFixtures.nestedJson(6, 60))) {
            for (CompressionStrategy s : all()) {
                s.compress(input(text, BUDGET)).ifPresent(c -> assertTrue(c.text().length() <= BUDGET,
                        s.mode() + " returned " + c.text().length() + " chars for a budget of " + BUDGET));
            }
        }
    }

    @Test
    void truncateKeepsEveryHeadingOfMarkdown() {
        String md = CompressFixtures.markdown(20, 5);
        Compressed c = new TruncateStrategy().compress(input(md, BUDGET)).orElseThrow();
        for (int i = 0; i < 20; i++) assertTrue(c.text().contains("## Section " + i + "\n"), "heading " + i);
        assertTrue(c.text().contains("truncated: kept"), c.text());
        assertTrue(c.retention() < 1.0);
    }

    @Test
    void truncateCutsPlainTextAtASentenceAndNamesTheOriginal() {
        Compressed c = new TruncateStrategy().compress(input(CompressFixtures.prose(200), BUDGET)).orElseThrow();
        String body = c.text().substring(0, c.text().indexOf("\n---\n"));
        assertTrue(body.endsWith("."), "ends at a sentence: …" + body.substring(body.length() - 20));
        assertTrue(c.text().contains("key=k00000000001"), c.text());
    }

    @Test
    void selectiveListsEverySectionWithItsId() {
        String md = CompressFixtures.markdown(20, 5);
        Compressed c = new SelectiveStrategy().compress(input(md, BUDGET)).orElseThrow();
        List<Section> sections = Sections.split(md);
        // the table of contents is memtomem-stm's JSON: one entry per section, keyed by its id, in order
        List<String> keys = JsonTocTest.entries(c.text()).stream().map(e -> (String) e.get("key")).toList();
        assertEquals(sections.stream().map(Section::id).toList(), keys);
        assertEquals(1.0, c.retention());
    }

    @Test
    void progressiveFirstChunkIsThePrefixOfTheOriginalBeforeTheFooterToken() {
        String text = CompressFixtures.prose(200);
        Compressed c = new ProgressiveStrategy(3000).compress(input(text, BUDGET)).orElseThrow();
        int at = c.text().indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
        assertTrue(at > 0);
        assertTrue(text.startsWith(c.text().substring(0, at)));
        assertTrue(c.text().contains("has_more=true"));
    }

    @Test
    void progressiveListsTheSectionsAfterItsChunkWhenOneReadMoreCannotReachTheEnd() {
        String text = CompressFixtures.prose(200);
        CompressionInput in = input(text, BUDGET);
        Compressed c = new ProgressiveStrategy(3000).compress(in).orElseThrow();
        assertTrue(c.text().length() <= BUDGET, c.text().length() + " chars");
        int at = c.text().indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
        String chunk = c.text().substring(0, at);
        assertTrue(text.startsWith(chunk));
        String footer = c.text().substring(at);
        assertTrue(footer.contains("stm_proxy_read_more(key=\"k00000000001\", offset=" + chunk.length() + ")"), footer);
        assertTrue(footer.contains("stm_proxy_select_chunks(key=\"k00000000001\""), footer);
        // every section not wholly in the chunk is listed by id: any part is one call away
        for (Section s : in.sections()) {
            boolean listed = footer.contains("- " + s.id() + " \"");
            assertEquals(s.end() > chunk.length(), listed, s.id() + " " + s.start() + ".." + s.end());
        }
        assertEquals(1.0, c.retention());
    }

    @Test
    void progressiveListsNothingWhenOneReadMoreReachesTheEnd() {
        String text = CompressFixtures.prose(80); // ~6,600 chars: the chunk, then one default read_more
        Compressed c = new ProgressiveStrategy(4000).compress(input(text, 5000)).orElseThrow();
        assertFalse(c.text().contains("stm_proxy_select_chunks"), c.text());
        assertTrue(c.text().endsWith(")]"), "ends with the read_more hint");
    }

    @Test
    void tableOfContentsPreviewsDoNotRepeatTheTitleAndSkipHeaderLines() {
        String md = "# A\n\nFirst words of A.\n\n# B\n\nFirst words of B.\n";
        List<Section> sections = Sections.split(md);
        assertEquals("First words of A.", TableOfContents.preview(md, sections.get(0), 80));
        String log = "* commit 1\n| Author: x <x@y>\n| Date: today\n|\n|     Fix the parser\n";
        Section one = new Section("s1", "* commit 1", 0, log.length());
        assertEquals("Fix the parser", TableOfContents.preview(log, one, 80));
        String headersOnly = "Author: x\nDate: today\n";
        assertEquals("Author: x Date: today", TableOfContents.preview(headersOnly, new Section("s1", "", 0, headersOnly.length()), 80));
    }

    @Test
    void jsonSummariesListTheSectionsByPathRange() {
        String array = CompressFixtures.jsonArray(200);
        CompressionInput arrayIn = input(array, BUDGET);
        Compressed pruned = new SchemaPruningStrategy(MAPPER).compress(arrayIn).orElseThrow();
        assertTrue(pruned.text().length() <= BUDGET);
        assertTrue(pruned.text().contains("stm_proxy_select_chunks(key=\"k00000000001\""), pruned.text());
        for (Section s : arrayIn.sections()) assertTrue(pruned.text().contains("- " + s.id() + " \"" + s.title() + "\""), s.title());
        assertTrue(pruned.text().contains("..199]\""), pruned.text());

        String nested = CompressFixtures.nestedJson(6, 60);
        CompressionInput nestedIn = input(nested, BUDGET);
        Compressed fields = new FieldExtractionStrategy(MAPPER).compress(nestedIn).orElseThrow();
        assertTrue(fields.text().length() <= BUDGET);
        for (Section s : nestedIn.sections()) assertTrue(fields.text().contains("- " + s.id() + " \""), s.id());
        assertTrue(fields.text().contains(" \"group5\" ("), fields.text());
    }

    @Test
    void hybridShowsTheHeadThenATableOfContentsOfTheRest() {
        String md = CompressFixtures.markdown(20, 5);
        Compressed c = new HybridStrategy().compress(input(md, BUDGET)).orElseThrow();
        assertTrue(c.text().startsWith("# Guide"), c.text().substring(0, 40));
        assertTrue(c.text().contains("[hybrid: chars 0-"));
        assertTrue(c.text().contains("\"Section 19\""), "last section listed in the TOC");
    }

    @Test
    void schemaPruningKeepsTwoFirstAndTheLastItemAndCountsTheRest() {
        Compressed c = new SchemaPruningStrategy(MAPPER).compress(input(CompressFixtures.jsonArray(200), BUDGET)).orElseThrow();
        assertTrue(c.text().contains("\"item-0\"") && c.text().contains("\"item-1\"") && c.text().contains("\"item-199\""));
        assertTrue(c.text().contains("197 more items (200 in all)"), c.text());
        assertTrue(!c.text().contains("\"item-100\""));
        assertEquals(1.0, c.retention(), "every key path survives");
    }

    @Test
    void schemaPruningDoesNotApplyToShortArraysOrText() {
        assertTrue(new SchemaPruningStrategy(MAPPER).compress(input(CompressFixtures.jsonArray(5), BUDGET)).isEmpty());
        assertTrue(new SchemaPruningStrategy(MAPPER).compress(input(CompressFixtures.prose(100), BUDGET)).isEmpty());
    }

    @Test
    void fieldExtractionKeepsEveryTopLevelKeyAndPreviewsNestedOnes() {
        Compressed c = new FieldExtractionStrategy(MAPPER).compress(input(CompressFixtures.nestedJson(6, 60), BUDGET)).orElseThrow();
        for (int g = 0; g < 6; g++) assertTrue(c.text().contains("\"group" + g + "\""), "group" + g);
        assertTrue(c.text().contains("54 more keys"), c.text());
        assertTrue(!c.text().contains("\"key59\""));
    }

    @Test
    void sectionsAlwaysCoverTheTextExactly() {
        for (String text : List.of(CompressFixtures.markdown(7, 3), CompressFixtures.prose(300), CompressFixtures.jsonArray(90),
                "x".repeat(9000), "```\n# not a heading\n```\n# A\ntext\n# B\nmore\n")) {
            String joined = Sections.split(text).stream().map(s -> text.substring(s.start(), s.end())).collect(Collectors.joining());
            assertEquals(text, joined);
        }
    }

    @Test
    void headingsInsideCodeFencesDoNotSplit() {
        String text = "# A\n```\n# inside\n```\n# B\n";
        assertEquals(2, Sections.split(text).size());
    }
}
