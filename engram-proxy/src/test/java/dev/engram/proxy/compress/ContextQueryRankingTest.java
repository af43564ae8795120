package dev.engram.proxy.compress;

import static dev.engram.proxy.compress.CompressFixtures.MAPPER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code _context_query} ranks what a compressed view keeps. Measured on the checked-in proxy corpus
 * (engram-bench's {@code proxy-corpus}, real upstream responses): for each result over its budget, the
 * lines at 10%, 50% and 90% of it are the answers, and the query is a few words of the answer's line,
 * as an agent would name what it looks for. The view with the query must show the answer more often
 * than the view without it, the original must stay one call away, and without a query the view is
 * byte for byte the one it was.
 */
class ContextQueryRankingTest {
    private static final Path CORPUS = Path.of("../engram-bench/src/main/resources/proxy-corpus");
    @TempDir
    Path dir;

    record Case(String doc, String raw, String needle, String query) {
    }

    /** Up to four distinct words of four or more letters from the answer's line; null when it has fewer than two. */
    static String queryFor(String needle) {
        Set<String> words = new LinkedHashSet<>();
        for (String w : needle.split("[^\\p{L}]+")) {
            if (w.length() >= 4) words.add(w.toLowerCase(Locale.ROOT));
            if (words.size() == 4) break;
        }
        return words.size() < 2 ? null : String.join(" ", words);
    }

    static List<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        for (String row : Files.readString(CORPUS.resolve("corpus.tsv")).split("\n")) {
            if (row.isBlank()) continue;
            String name = row.split("\t", 2)[0];
            String raw = Files.readString(CORPUS.resolve(name));
            if (raw.length() <= budget(raw)) continue; // passes through whole: nothing to rank
            for (double at : new double[] {0.1, 0.5, 0.9}) {
                int pos = (int) (raw.length() * at);
                int start = raw.lastIndexOf('\n', pos) + 1;
                int end = raw.indexOf('\n', start);
                String line = raw.substring(start, end < 0 ? raw.length() : end).strip();
                if (line.length() > 60) line = line.substring(0, 60);
                String query = queryFor(line);
                if (query != null) cases.add(new Case(name, raw, line, query));
            }
        }
        return cases;
    }

    static int budget(String raw) {
        return ResultBudget.DEFAULT.forResult(raw.length(), UpstreamConfig.DEFAULT_MAX_RESULT_CHARS);
    }

    @Test
    void theQueryKeepsTheAnswerInViewMoreOftenAndTheOriginalStaysOneCallAway() throws IOException {
        OriginalStore store = new OriginalStore(java.time.Clock.systemUTC(), new java.util.function.Supplier<>() {
            private int n;

            @Override
            public String get() {
                return "k" + (++n);
            }
        }, 10_000, Long.MAX_VALUE, OriginalStore.DEFAULT_TTL);
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);
        List<Case> cases = cases();
        assertTrue(cases.size() >= 20, "the corpus gives enough questions: " + cases.size());
        int without = 0;
        int with = 0;
        StringBuilder report = new StringBuilder();
        for (Case c : cases) {
            String cleaned = TextCleaner.clean(c.raw());
            int budget = budget(c.raw());
            CompressionOutcome plain = compressor.compress("s", "t", c.raw(), cleaned, budget, CompressionMode.AUTO);
            CompressionOutcome asked = compressor.compress("s", "t", c.raw(), cleaned, budget, CompressionMode.AUTO, c.query());
            boolean a = plain.text().contains(c.needle());
            boolean b = asked.text().contains(c.needle());
            if (a) without++;
            if (b) with++;
            report.append(String.format("%-28s %-28s %-5s %-5s %s%n", c.doc(), plain.path(), a, b, asked.path()));
            assertTrue(asked.text().length() <= budget, c.doc() + ": the view keeps its budget");
            StoredResult stored = store.get(asked.key()).orElseThrow();
            assertEquals(c.raw(), stored.original(), "the exact original is stored under the view's key");
            List<String> ids = stored.sections().stream().map(Section::id).toList();
            assertEquals(c.raw(), Recovery.select(store, dir, asked.key(), ids), c.doc() + ": every section, in order, is the original");
            assertTrue(asked.text().contains(asked.key()), c.doc() + ": the view names the key of the original");
        }
        System.err.printf("context_query ranking on the proxy corpus: the answer in view for %d of %d questions without"
                + " the query, %d with it%n%s", without, cases.size(), with, report);
        assertTrue(with > without, "with the query " + with + " answers in view, without " + without);
    }

    @Test
    void withoutAQueryOrWithOneNothingMatchesTheViewIsTheSame() throws IOException {
        for (Case c : cases()) {
            String cleaned = TextCleaner.clean(c.raw());
            int budget = budget(c.raw());
            OriginalStore one = new OriginalStore(java.time.Clock.systemUTC(), () -> "k1");
            OriginalStore two = new OriginalStore(java.time.Clock.systemUTC(), () -> "k1");
            CompressionOutcome before = new Compressor(MAPPER, one, new RetentionFloor(0.65), 4000)
                    .compress("s", "t", c.raw(), cleaned, budget, CompressionMode.AUTO);
            CompressionOutcome none = new Compressor(MAPPER, two, new RetentionFloor(0.65), 4000)
                    .compress("s", "t", c.raw(), cleaned, budget, CompressionMode.AUTO, "zqxjv wqpfz");
            assertEquals(before.text(), none.text(), c.doc() + ": a query no section matches changes nothing");
            assertEquals(before.path(), none.path());
        }
    }

    @Test
    void theRankerPrefersTheSectionThatNamesTheQueryAndWeighsTitles() {
        String text = "# Install\nRun the installer and wait.\n# Deploy\nDeploying needs the release runbook and a checklist.\n"
                + "# Notes\nThe checklist mentions deploy once.\n";
        List<Section> sections = Sections.split(text);
        List<SectionRanker.Ranked> ranked = SectionRanker.rank("how do I deploy with the checklist", text, sections);
        assertEquals("Deploy", sections.get(ranked.get(0).index()).title(), "a title word counts more than a body word");
        assertEquals(2, ranked.size(), "the install section matches nothing");
        assertTrue(SectionRanker.rank("how do I", text, sections).isEmpty(), "stop words alone rank nothing");
    }

    /** A guide whose last section holds the answer past its first line; the beginning says nothing about it. */
    private static String guideWithAnswerAtTheEnd() {
        return CompressFixtures.markdown(30, 4) + "## Rollback\n\nThis happens rarely.\n\nTo roll back a failed canary, run `deploy revert --to last-green`.\n";
    }

    @Test
    void explicitTruncateAndHybridShowTheMatchingSectionAndPipelinesPassTheQuery() {
        String md = guideWithAnswerAtTheEnd();
        String answer = "run `deploy revert --to last-green`";
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000);
        for (CompressionMode mode : List.of(CompressionMode.TRUNCATE, CompressionMode.HYBRID)) {
            CompressionOutcome plain = compressor.compress("s", "t", md, TextCleaner.clean(md), 3000, mode);
            CompressionOutcome asked = compressor.compress("s", "t", md, TextCleaner.clean(md), 3000, mode, "roll back a canary");
            assertTrue(!plain.text().contains(answer), mode + " without a query shows the beginning");
            assertTrue(asked.text().contains(answer), mode + " with the query shows the section that answers it:\n" + asked.text());
            assertTrue(asked.text().length() <= 3000);
            assertTrue(asked.path().endsWith("+context_query"), asked.path());
        }
        CompressionOutcome hybrid = compressor.compress("s", "t", md, TextCleaner.clean(md), 3000, CompressionMode.HYBRID, "roll back");
        assertTrue(hybrid.text().contains("those that match your _context_query best"), hybrid.text());
        assertTrue(hybrid.text().contains("- s2 "), "the sections not shown are listed, from the first:\n" + hybrid.text());

        dev.engram.proxy.pipeline.ProxiedCall call = new dev.engram.proxy.pipeline.ProxiedCall(
                UpstreamConfig.of("s", "s", new dev.engram.proxy.config.UpstreamTransport.Stdio("x", List.of(), List.of())),
                "read", "s__read", java.util.Map.of(), ResultBudget.DEFAULT, "roll back a canary");
        dev.engram.proxy.pipeline.PipelineText out = new dev.engram.proxy.pipeline.Pipeline(List.of(new dev.engram.proxy.pipeline.CleanStage(),
                new dev.engram.proxy.pipeline.CompressStage(compressor))).run(call, md);
        assertTrue(out.text().contains(answer), "the call's _context_query reaches the compressor");
        assertTrue(out.path().contains("+context_query"), out.path());
    }

    @Test
    void theJsonTableOfContentsFormatWorksWithAFocusToo() {
        String md = guideWithAnswerAtTheEnd();
        OriginalStore store = CompressFixtures.store();
        Compressor compressor = new Compressor(MAPPER, store, new RetentionFloor(0.65), 4000,
                new TocFormat.Choice(TocFormat.JSON, TocFormat.JSON), null);
        CompressionOutcome asked = compressor.compress("s", "t", md, TextCleaner.clean(md), 3000, CompressionMode.AUTO, "roll back a canary");
        assertTrue(asked.text().contains("deploy revert"), asked.text());
        assertTrue(asked.text().contains("\"type\": \"toc\""), asked.text());
    }
}
