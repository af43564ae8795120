package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static dev.engram.proxy.compress.CompressFixtures.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.CompressionMode;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** skeleton: every heading and each section's first line, any section exact through select_chunks. */
class SkeletonStrategyTest {
    @TempDir
    Path dir;

    /** API docs: one section per endpoint, each a summary line and then detail. */
    static String apiDocs(int endpoints) {
        StringBuilder sb = new StringBuilder("# Users API\n\nBase URL: https://api.example.com/v1\n\n");
        String[] verbs = {"GET", "POST", "PUT", "DELETE", "PATCH"};
        for (int i = 0; i < endpoints; i++) {
            sb.append("## ").append(verbs[i % verbs.length]).append(" /users/").append(i).append("\n\n")
                    .append("Endpoint ").append(i).append(" does thing number ").append(i).append(".\n\n")
                    .append("```json\n{\"id\": ").append(i).append(", \"name\": \"user ").append(i).append("\"}\n```\n\n");
            for (int p = 0; p < 4; p++) {
                sb.append("Detail ").append(p).append(" of endpoint ").append(i)
                        .append(": parameters, errors and limits described at length here.\n\n");
            }
        }
        return sb.toString();
    }

    @Test
    void keepsEveryHeadingAndTheFirstLineOfEachSection() {
        String md = apiDocs(12);
        Compressed c = new SkeletonStrategy().compress(input(md, 4000)).orElseThrow();
        assertTrue(c.text().length() <= 4000, c.text().length() + " chars");
        assertEquals(1.0, c.retention());
        for (Section s : Sections.split(md)) {
            if (!s.title().startsWith("(")) assertTrue(c.text().contains(s.title()), "heading " + s.title());
            assertTrue(c.text().contains("[" + s.id() + " · " + s.size() + " chars]"), s.id() + " is addressable");
        }
        for (int i = 0; i < 12; i++) assertTrue(c.text().contains("Endpoint " + i + " does thing number " + i + "."), "line " + i);
        assertFalse(c.text().contains("Detail 1 of endpoint"), "only the first line of a section");
        assertTrue(c.text().contains("stm_proxy_select_chunks(key=\"k00000000001\""), c.text());
        assertTrue(c.text().contains("stm_proxy_read_more(key=\"k00000000001\", offset=0)"), c.text());
    }

    @Test
    void aTightBudgetShortensLinesThenListsHeadingsThenAPrefixAndARange() {
        String md = apiDocs(80);
        List<Section> sections = Sections.split(md);
        Compressed roomy = new SkeletonStrategy().compress(input(md, 8000)).orElseThrow();
        assertTrue(roomy.text().length() <= 8000);
        Compressed tight = new SkeletonStrategy().compress(input(md, 1500)).orElseThrow();
        assertTrue(tight.text().length() <= 1500, tight.text().length() + " chars");
        assertTrue(tight.retention() < 1.0);
        Matcher range = Pattern.compile("\\[(s\\d+) \\.\\. (s\\d+): (\\d+) more sections]").matcher(tight.text());
        assertTrue(range.find(), tight.text());
        assertEquals(sections.get(sections.size() - 1).id(), range.group(2));
        assertEquals(sections.size() - Integer.parseInt(range.group(1).substring(1)) + 1, Integer.parseInt(range.group(3)));
    }

    @Test
    void doesNotApplyWithoutHeadings() {
        assertTrue(new SkeletonStrategy().compress(input(CompressFixtures.prose(200), 4000)).isEmpty());
        assertTrue(new SkeletonStrategy().compress(input(CompressFixtures.jsonArray(100), 4000)).isEmpty());
    }

    @Test
    void autoPicksSkeletonForApiDocsAsMemtomemDoesAndTheOriginalComesBackExactly() {
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);
        String md = apiDocs(30);
        CompressionOutcome out = compressor.compress("s", "t", md, TextCleaner.clean(md), 6000, CompressionMode.AUTO);
        assertEquals(CompressionMode.SKELETON, out.strategy());
        assertEquals("skeleton", out.path());
        assertTrue(out.text().length() <= 6000);
        List<String> ids = store.get(out.key()).orElseThrow().sections().stream().map(Section::id).toList();
        for (String id : ids) assertTrue(out.text().contains("[" + id + " · "), id + " listed");
        assertEquals(md, Recovery.select(store, dir, out.key(), ids), "select_chunks of every listed section");
        // one section alone is that section's text exactly
        Section third = store.get(out.key()).orElseThrow().sections().get(2);
        assertEquals(md.substring(third.start(), third.end()), Recovery.select(store, dir, out.key(), List.of(third.id())));
    }

    @Test
    void markdownWithoutEndpointsStaysHybrid() {
        String md = CompressFixtures.markdown(20, 5);
        assertEquals(CompressionMode.HYBRID, StrategyChooser.choose(ContentShape.of(md, MAPPER), md.length(), md.length() / 2));
        String api = apiDocs(4);
        assertEquals(CompressionMode.SKELETON, StrategyChooser.choose(ContentShape.of(api, MAPPER), api.length(), api.length() / 2));
        // three headings are too few, as in memtomem-stm
        String three = "# A\nGET /x\n\n## B\ntext\n\n## C\ntext\n" + "filler line\n".repeat(200);
        assertEquals(CompressionMode.PROGRESSIVE,
                StrategyChooser.choose(ContentShape.of(three, MAPPER), three.length(), three.length() / 2));
    }
}
