package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.analysis.TagVocabulary;
import dev.engram.embed.BundledModel;
import dev.engram.embed.LazyEmbedder;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallSettings;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.MemoryType;
import dev.engram.mcp.profile.nativeprofile.TextRenderer;
import dev.engram.store.EmbeddedStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval regression set: a fixed corpus of coding-agent memories and 34 queries (exact words,
 * paraphrases that share no keyword with their memory, Korean and Japanese, an exact key, questions
 * whose words are mostly function words that search leaves out), each of
 * whose expected memory must be in the top 5 of the default recall with each in-jar model. A ranking
 * change that loses one of them fails CI.
 */
class RetrievalRegressionTest {
    private static final TextRenderer TEXT = new TextRenderer();

    private static final int TOP = 5;

    @TempDir
    Path dir;

    /** Both models shipped in the jar: the default (e5-small-v2) and MiniLM, which stores made before keep. */
    @ParameterizedTest
    @EnumSource(BundledModel.class)
    void everyQueryFindsItsMemoryInTheTopFive(BundledModel model) throws IOException {
        LazyEmbedder embedder = LazyEmbedder.bundled(model, Duration.ZERO);
        assertTrue(embedder.awaitReady(Duration.ofMinutes(2)), model + " did not load: " + embedder.failure());
        List<String[]> queries = rows("regression-queries.tsv");
        assertTrue(queries.size() >= 30, "the set needs at least 30 queries, has " + queries.size());
        List<String> failures = new ArrayList<>();
        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            Engine engine = new Engine(store.store(), store.index(), Clock.systemUTC(), TagVocabulary.builtInOnly(),
                    embedder, RecallSettings.defaults());
            for (String[] m : rows("regression-corpus.tsv")) {
                engine.remember(new RememberCommand(m[2], m[0], MemoryType.parse("type", m[1]), null, null, null, null,
                        null, null, null, null, false, null, null));
            }
            for (String[] q : queries) {
                List<String> keys = engine.recall(RecallQuery.builder(q[1]).limit(TOP).asOf(null).build(), TEXT).results()
                        .stream().map(r -> r.memory().key()).toList();
                if (!keys.contains(q[0])) failures.add(q[2] + " query '" + q[1] + "' expected " + q[0] + " in " + keys);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + queries.size() + " queries lost their memory:\n"
                + String.join("\n", failures));
    }

    private static List<String[]> rows(String resource) throws IOException {
        try (InputStream in = RetrievalRegressionTest.class.getResourceAsStream("/" + resource)) {
            List<String[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                out.add(line.split("\t"));
            }
            return out;
        }
    }
}
