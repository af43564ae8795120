package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static dev.engram.proxy.compress.CompressFixtures.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The selective table of contents parses as memtomem-stm's {@code {"type": "toc", ...}} JSON. */
class JsonTocTest {
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String text) {
        try {
            return MAPPER.readValue(text, Map.class);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> entries(String text) {
        return (List<Map<String, Object>>) parse(text).get("entries");
    }

    @Test
    void markdownTocHasStmsFieldsAndOneEntryPerSection() {
        String md = CompressFixtures.markdown(20, 5);
        CompressionInput in = input(md, 8000);
        Compressed c = new SelectiveStrategy().compress(in).orElseThrow();
        Map<String, Object> toc = parse(c.text());
        assertEquals("toc", toc.get("type"));
        assertEquals("k00000000001", toc.get("selection_key"));
        assertEquals("markdown", toc.get("format"));
        assertEquals(md.length(), ((Number) toc.get("total_chars")).intValue());
        assertEquals(1800, ((Number) toc.get("ttl_seconds_remaining")).intValue(), "the store keeps a key 30 min unused");
        assertNull(toc.get("omitted"), "every section fits");
        String hint = (String) toc.get("hint");
        assertTrue(hint.contains("stm_proxy_select_chunks(key='k00000000001'"), hint);

        List<Map<String, Object>> entries = entries(c.text());
        List<Section> sections = Sections.split(md);
        assertEquals(sections.size(), entries.size());
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            Map<String, Object> e = entries.get(i);
            assertEquals(s.id(), e.get("key"));
            assertEquals("heading", e.get("type"));
            assertEquals(s.size(), ((Number) e.get("size")).intValue(), s.id());
            assertEquals(Boolean.FALSE, e.get("inline"));
            assertEquals(s.title(), e.get("title"));
            String preview = (String) e.get("preview");
            assertFalse(preview.isEmpty(), s.id() + " has a preview");
            assertTrue(preview.length() <= TableOfContents.PREVIEW_CHARS + 1, preview);
            // the preview is the section's own text, not its neighbour's
            String body = md.substring(s.start(), s.end()).replace('\n', ' ');
            String start = preview.substring(0, Math.min(20, preview.length()));
            assertTrue(body.contains(start), s.id() + ": " + preview);
        }
    }

    @Test
    void aSmallBudgetDropsPreviewsThenListsAPrefixAndNamesTheRestAsValidJson() {
        String md = CompressFixtures.markdown(60, 5);
        List<Section> sections = Sections.split(md);
        int budget = 1500;
        Compressed c = new SelectiveStrategy().compress(input(md, budget)).orElseThrow();
        assertTrue(c.text().length() <= budget, c.text().length() + " chars");
        Map<String, Object> toc = parse(c.text());
        List<Map<String, Object>> entries = entries(c.text());
        assertTrue(entries.size() >= 1 && entries.size() < sections.size(), entries.size() + " listed");
        for (Map<String, Object> e : entries) assertEquals("", e.get("preview"));
        @SuppressWarnings("unchecked")
        Map<String, Object> omitted = (Map<String, Object>) toc.get("omitted");
        assertEquals(sections.get(entries.size()).id(), omitted.get("from"));
        assertEquals(sections.get(sections.size() - 1).id(), omitted.get("to"));
        assertEquals(sections.size() - entries.size(), ((Number) omitted.get("count")).intValue());
        assertEquals((double) entries.size() / sections.size(), c.retention(), 1e-9);
    }

    @Test
    void jsonTextIsFormatJsonWithEntriesTypedByWhatTheyStartWith() {
        String json = CompressFixtures.jsonArray(200);
        Compressed c = new SelectiveStrategy().compress(input(json, 6000)).orElseThrow();
        assertEquals("json", parse(c.text()).get("format"));
        for (Map<String, Object> e : entries(c.text())) {
            assertTrue(List.of("object", "array", "string").contains(e.get("type")), e.toString());
        }
    }

    @Test
    void quotesEscapeWhatJsonForbidsRaw() {
        String q = JsonToc.quote("a\"b\\c\nd\te\u0001f\ud83d");
        assertEquals("a\"b\\c\nd\te\u0001f\ud83d", parse("{\"v\": " + q + "}").get("v"));
        assertFalse(q.contains("\n"), q);
        assertTrue(q.contains("\\ud83d"), "a lone surrogate is escaped: " + q);
        assertEquals("\"\ud83d\ude00\"", JsonToc.quote("\ud83d\ude00"), "a valid pair is kept");
    }
}
