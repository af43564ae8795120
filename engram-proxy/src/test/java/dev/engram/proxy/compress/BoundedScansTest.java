package dev.engram.proxy.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The searches and the table of contents were made linear (docs/benchmarks.md §8, proxy-scaling);
 * these tests hold them to the unbounded versions they replaced, kept here as oracles, so the
 * views stay byte-identical. Speed itself is measured by the bench, not here.
 */
class BoundedScansTest {
    private final long seed = Long.getLong("engram.seed", System.nanoTime());
    private final String reproduce = "reproduce with -Dtest=BoundedScansTest -Dengram.seed=" + seed;

    @Test
    void boundedSearchesAgreeWithLastIndexOfAboveTheFloor() {
        Random random = new Random(seed);
        for (int round = 0; round < 2000; round++) {
            String text = randomText(random, 1 + random.nextInt(60));
            int from = random.nextInt(text.length() + 3) - 1;
            int floor = random.nextInt(text.length() + 2) - 2;
            char c = random.nextBoolean() ? '\n' : ' ';
            String where = "'" + text + "' from " + from + " floor " + floor + "; " + reproduce;
            int last = text.lastIndexOf(c, from);
            assertEquals(last > floor ? last : -1, Sections.lastIndexAbove(text, c, from, floor), where);
            int para = text.lastIndexOf("\n\n", from);
            assertEquals(para > floor ? para : -1, Sections.lastParagraph(text, from, floor), where);
        }
    }

    @Test
    void lineEndStopsAtTheLineOrTheLimit() {
        assertEquals(3, Sections.lineEnd("abc\ndef", 0, 400));
        assertEquals(7, Sections.lineEnd("abc\ndef", 4, 400));
        assertEquals(2, Sections.lineEnd("abcdef", 0, 2));
        assertEquals(6, Sections.lineEnd("abcdef", 5, Integer.MAX_VALUE));
    }

    @Test
    void tableOfContentsMatchesRenderingEveryCount() {
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            String raw = randomText(random, 200 + random.nextInt(4000));
            List<Section> sections = randomSections(random, raw);
            int budget = random.nextInt(3000) - 50;
            int maxPreview = random.nextBoolean() ? TableOfContents.PREVIEW_CHARS : 0;
            TableOfContents.Rendered expected = quadraticRender(raw, sections, budget, maxPreview);
            TableOfContents.Rendered got = TableOfContents.render(raw, sections, budget, maxPreview);
            assertEquals(expected, got, sections.size() + " sections, budget " + budget + "; " + reproduce);
        }
    }

    private static String randomText(Random random, int length) {
        String alphabet = "ab \n\n\n#|*Note: ";
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return sb.toString();
    }

    private static List<Section> randomSections(Random random, String raw) {
        List<Section> out = new ArrayList<>();
        int start = 0;
        while (start < raw.length()) {
            int end = Math.min(raw.length(), start + 1 + random.nextInt(300));
            String title = random.nextInt(4) == 0 ? "t\"" + out.size() + "…" : "title " + out.size();
            out.add(new Section("s" + (out.size() + 1), title, start, end));
            start = end;
        }
        return out;
    }

    /** The rendering before it was made linear: every preview length, then every count from all-but-one down. */
    private static TableOfContents.Rendered quadraticRender(String raw, List<Section> sections, int budget, int maxPreview) {
        for (int preview = maxPreview; preview >= 0; preview -= 20) {
            String t = lines(raw, sections, sections.size(), Math.max(0, preview));
            if (t.length() <= budget) return new TableOfContents.Rendered(t, sections.size());
        }
        for (int n = sections.size() - 1; n >= 1; n--) {
            String t = lines(raw, sections, n, 0);
            if (t.length() <= budget) return new TableOfContents.Rendered(t, n);
        }
        return new TableOfContents.Rendered("", 0);
    }

    private static String lines(String raw, List<Section> sections, int listed, int preview) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < listed; i++) {
            Section s = sections.get(i);
            sb.append("- ").append(s.id()).append(" \"").append(s.title().replace('"', '\'')).append("\" (")
                    .append(s.size()).append(" chars)");
            if (preview > 0) {
                String p = TableOfContents.preview(raw, s, preview);
                if (!p.isEmpty()) sb.append(": ").append(p);
            }
            sb.append('\n');
        }
        if (listed < sections.size()) {
            sb.append("- ").append(sections.get(listed).id()).append(" .. ").append(sections.get(sections.size() - 1).id())
                    .append(": ").append(sections.size() - listed).append(" more sections\n");
        }
        return sb.toString();
    }
}
