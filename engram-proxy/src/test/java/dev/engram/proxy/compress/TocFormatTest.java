package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static dev.engram.proxy.compress.CompressFixtures.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.CompressionSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The toc_format setting: each view's table of contents as memtomem-stm's JSON or Engram's text, both exact. */
class TocFormatTest {
    @TempDir
    Path dir;

    /** The JSON object that starts at the first '{' of a line: the TOC under a head or a chunk. */
    private static String jsonPart(String view) {
        int at = view.indexOf("\n{\"type\": \"toc\"");
        assertTrue(at >= 0, "a JSON table of contents: " + view);
        return view.substring(at + 1);
    }

    @Test
    void selectiveAsTextIsEngramsListAndAsJsonIsStms() {
        String md = CompressFixtures.markdown(20, 5);
        Compressed text = new SelectiveStrategy(TocFormat.TEXT).compress(input(md, 4000)).orElseThrow();
        assertTrue(text.text().startsWith("[selective: "), text.text());
        for (Section s : Sections.split(md)) assertTrue(text.text().contains("- " + s.id() + " \""), s.id());
        Compressed json = new SelectiveStrategy(TocFormat.JSON).compress(input(md, 4000)).orElseThrow();
        assertEquals("toc", JsonTocTest.parse(json.text()).get("type"));
        assertEquals(1.0, text.retention());
        assertEquals(1.0, json.retention());
    }

    @Test
    void hybridInJsonListsTheRestAsStmsTocAndSelectingItsKeysGivesTheRestExactly() {
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000,
                TocFormat.Choice.all(TocFormat.JSON), null);
        String md = CompressFixtures.markdown(30, 5);
        CompressionOutcome out = compressor.compress("s", "t", md, TextCleaner.clean(md), 4000, CompressionMode.HYBRID);
        assertEquals(CompressionMode.HYBRID, out.strategy());
        assertTrue(out.text().length() <= 4000, out.text().length() + " chars");
        Map<String, Object> toc = JsonTocTest.parse(jsonPart(out.text()));
        assertEquals(out.key(), toc.get("selection_key"));
        List<String> keys = JsonTocTest.entries(jsonPart(out.text())).stream().map(e -> (String) e.get("key")).toList();
        StoredResult stored = store.get(out.key()).orElseThrow();
        List<String> ids = stored.sections().stream().map(Section::id).toList();
        int first = ids.indexOf(keys.get(0));
        assertTrue(first > 0, "the head holds the first sections whole");
        assertEquals(ids.subList(first, first + keys.size()), keys, "the entries are the sections after the head, in order");
        // what the budget left out is named as a range, still selectable: together they are the rest exactly
        @SuppressWarnings("unchecked")
        Map<String, Object> omitted = (Map<String, Object>) toc.get("omitted");
        List<String> all = omitted == null ? keys : ids.subList(first, ids.size());
        if (omitted != null) assertEquals(ids.get(ids.size() - 1), omitted.get("to"));
        Section start = stored.section(keys.get(0)).orElseThrow();
        assertEquals(md.substring(start.start()), Recovery.select(store, dir, out.key(), all));
        assertFalse(out.text().contains("\n- s"), "no text list in the JSON form");
    }

    @Test
    void progressiveInJsonListsTheSectionsAfterTheChunkAsStmsToc() {
        String text = CompressFixtures.prose(200);
        Compressed c = new ProgressiveStrategy(3000, TocFormat.JSON).compress(input(text, 4000)).orElseThrow();
        assertTrue(c.text().length() <= 4000, c.text().length() + " chars");
        int at = c.text().indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
        assertTrue(text.startsWith(c.text().substring(0, at)), "the chunk is the original's prefix");
        List<Map<String, Object>> entries = JsonTocTest.entries(jsonPart(c.text()));
        assertFalse(entries.isEmpty());
        assertEquals("text", JsonTocTest.parse(jsonPart(c.text())).get("format"));
    }

    @Test
    void theSettingIsReadFromTheEnvironmentWithStmsSpellingAndCheckedClearly() {
        assertEquals(TocFormat.Choice.DEFAULT, CompressionSettings.fromEnv(Map.of()).toc());
        assertEquals(TocFormat.Choice.all(TocFormat.TEXT), CompressionSettings.fromEnv(Map.of("ENGRAM_PROXY_TOC_FORMAT", "text")).toc());
        assertEquals(TocFormat.Choice.all(TocFormat.JSON), CompressionSettings.fromEnv(Map.of("MEMTOMEM_STM_TOC_FORMAT", "JSON")).toc());
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> CompressionSettings.fromEnv(Map.of("ENGRAM_PROXY_TOC_FORMAT", "yaml")));
        assertEquals("ENGRAM_PROXY_TOC_FORMAT must be json or text, got 'yaml'", e.getMessage());
    }
}
