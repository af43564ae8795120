package dev.engram.bench.locomo;

import dev.engram.analysis.ProjectVocabulary;
import dev.engram.analysis.TagVocabulary;
import dev.engram.bench.McpSession;
import dev.engram.bench.ModelReadiness;
import dev.engram.bench.TempDirs;
import dev.engram.bench.locomo.ConversationRun.EngineAnswer;
import dev.engram.bench.locomo.ConversationRun.Outcome;
import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.MemoryRules;
import dev.engram.mcp.render.TokenEstimate;
import dev.engram.spi.Embedder;
import dev.engram.store.EmbeddedStore;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One conversation measured on the product path: every turn written with the {@code remember} tool and
 * every question asked with the {@code recall} tool, JSON arguments in, {@code structuredContent} out,
 * exactly what an MCP client sends ({@link Via#MCP}: the built jar over stdio with the SDK client;
 * {@link Via#TOOLS}: the same native-profile handlers in process, through {@link ToolAdapter#call}, which is
 * what the server's SDK callback runs). The clock is the system clock, as in the server.
 * <p>
 * Recall counts accesses (what a user gets), and access counts feed the ranking, so each recall mode is
 * asked on its own copy of the ingested store: no mode's questions reorder another's. After ingestion the
 * store is closed and its Lucene index deleted, so every copy rebuilds it from the record on open: BM25
 * statistics then hold every turn once, independent of when background merges ran (as in
 * {@link ConversationRun}).
 */
final class ProductRun {
    /** How the tools are reached. */
    enum Via { TOOLS, MCP }

    /** A recall mode as a client asks for it: a name for the tables and the extra arguments. */
    record ClientMode(String name, Map<String, Object> arguments) {
    }

    /** The modes a client can choose with {@code recall}'s {@code mode}: the default (ranked cascade) and hybrid. */
    static final List<ClientMode> MODES = List.of(
            new ClientMode("recall {query, limit: 10} (ranked cascade, default)", Map.of()),
            new ClientMode("recall {query, limit: 10, mode: hybrid}", Map.of("mode", "hybrid")));

    private final Via via;
    private final LocomoConversation.Ingest ingest;
    private final Embedder embedder;
    private final Path jar;

    /** {@code embedder}: for {@link Via#TOOLS}; {@code jar}: for {@link Via#MCP} (run with the ENGRAM_EMBEDDER of the bundled model {@code embedder} is). */
    private final RecallSettings settings;
    /** {@code ENGRAM_EMBEDDER} for the server of {@link Via#MCP}. */
    private final String serverEmbedder;

    ProductRun(Via via, LocomoConversation.Ingest ingest, Embedder embedder, Path jar) {
        this(via, ingest, embedder, jar, RecallSettings.defaults(), "e5");
    }

    /** {@code settings} other than the defaults only for {@code --via tools}: a dev sweep of the server's handlers. */
    ProductRun(Via via, LocomoConversation.Ingest ingest, Embedder embedder, Path jar, RecallSettings settings,
               String serverEmbedder) {
        this.serverEmbedder = serverEmbedder;
        if (via == Via.MCP && !settings.equals(RecallSettings.defaults())) {
            throw new IllegalArgumentException("--via mcp runs the server's own recall settings");
        }
        this.settings = settings;
        this.via = via;
        this.ingest = ingest;
        this.embedder = embedder;
        this.jar = jar;
    }

    /** The mode names, in table order, for an ingestion. */
    static List<String> modeNames(LocomoConversation.Ingest ingest) {
        return MODES.stream().map(m -> name(m, ingest)).toList();
    }

    private static String name(ClientMode m, LocomoConversation.Ingest ingest) {
        return m.name() + ", ingest " + ingest.label();
    }

    Outcome run(LocomoConversation conversation) throws IOException {
        Path root = Files.createTempDirectory("engram-locomo-" + via.name().toLowerCase(java.util.Locale.ROOT) + "-"
                + conversation.sampleId() + "-");
        try {
            Path project = Files.createDirectories(root.resolve("project")); // an empty project: no project vocabulary
            Path ingested = root.resolve("ingested");
            Map<String, String> diaIdByKey = new HashMap<>();
            Map<String, Integer> tokensByDiaId = new HashMap<>();
            long ingestStart = System.nanoTime();
            // one client session writes the whole conversation, as an agent's MCP connection would;
            // SESSIONLESS measures the same ingestion without one (no inferred episodes)
            Caller writer = ingest == LocomoConversation.Ingest.SESSIONLESS ? Caller.NONE
                    : new Caller("locomo-bench/" + conversation.sampleId(), null);
            try (Session s = open(ingested, project, writer)) {
                remember(conversation, s, diaIdByKey, tokensByDiaId);
            }
            long ingestNanos = System.nanoTime() - ingestStart;
            deleteRecursively(ingested.resolve("index"));

            List<Map<String, EngineAnswer>> answers = new ArrayList<>();
            for (int i = 0; i < conversation.questions().size(); i++) answers.add(new LinkedHashMap<>());
            for (int m = 0; m < MODES.size(); m++) {
                ClientMode mode = MODES.get(m);
                Path copy = root.resolve("mode-" + m);
                TempDirs.copy(ingested, copy);
                try (Session s = open(copy, project, Caller.NONE)) {
                    for (int i = 0; i < conversation.questions().size(); i++) {
                        Question q = conversation.questions().get(i);
                        Map<String, Object> args = new LinkedHashMap<>();
                        args.put("query", q.text());
                        args.put("limit", ConversationRun.RECALL_LIMIT);
                        args.putAll(mode.arguments());
                        Reply r = s.call("recall", args);
                        answers.get(i).put(name(mode, ingest), answer(r, diaIdByKey, q));
                    }
                }
            }
            List<QuestionRun> runs = new ArrayList<>();
            for (int i = 0; i < conversation.questions().size(); i++) {
                runs.add(new QuestionRun(conversation.questions().get(i), answers.get(i), List.of(), 0, List.of(), 0, 0));
            }
            return new Outcome(conversation, runs, tokensByDiaId, ingestNanos, 0);
        } finally {
            deleteRecursively(root);
        }
    }

    private void remember(LocomoConversation conversation, Session s, Map<String, String> diaIdByKey,
                          Map<String, Integer> tokensByDiaId) {
        Turn previous = null;
        for (Turn t : conversation.turns()) {
            Map<String, Object> args = new LinkedHashMap<>();
            if (ingest != LocomoConversation.Ingest.KEYLESS) args.put("key", t.key());
            args.put("type", "fact");
            args.put("content", t.content(ingest));
            if (ingest == LocomoConversation.Ingest.TIMED) args.put("occurred_at", t.occurredAt()); // a documented parameter
            if (ingest == LocomoConversation.Ingest.ENRICHED && previous != null
                    && previous.sessionDate().equals(t.sessionDate())) {
                args.put("links", List.of("related:" + previous.key())); // remember's documented links parameter
            }
            previous = t;
            Reply r = s.call("remember", args);
            String key = String.valueOf(r.structured().get("key"));
            diaIdByKey.put(key, t.diaId());
            tokensByDiaId.put(t.diaId(), TokenEstimate.of("[00] fact/" + key + " (" + r.structured().get("id") + ") 100%\n"
                    + t.content(ingest) + "\n"));
        }
    }

    private static EngineAnswer answer(Reply r, Map<String, String> diaIdByKey, Question q) {
        List<String> ranking = new ArrayList<>();
        if (r.structured().get("results") instanceof List<?> results) {
            for (Object o : results) {
                Object key = ((Map<?, ?>) o).get("key");
                String diaId = diaIdByKey.get(String.valueOf(key));
                if (diaId == null) throw new IllegalStateException("recall for '" + q.text() + "' returned unknown key " + key);
                ranking.add(diaId);
            }
        }
        int tokens = r.structured().get("tokens") instanceof Number n ? n.intValue() : 0;
        boolean skipped = r.structured().get("layers") instanceof List<?> layers
                && layers.stream().anyMatch(l -> String.valueOf(l).startsWith("L3 semantic: skipped"));
        return new EngineAnswer(List.copyOf(ranking), tokens, r.nanos(), skipped, null);
    }

    /** A tool call's structured answer; an error reply stops the run with the server's message. */
    record Reply(Map<String, Object> structured, long nanos) {
    }

    /** The tools, reached one way or the other. */
    private interface Session extends AutoCloseable {
        Reply call(String tool, Map<String, Object> arguments);

        @Override
        void close();
    }

    private Session open(Path store, Path project, Caller caller) {
        if (via == Via.MCP && ingest == LocomoConversation.Ingest.SESSIONLESS) {
            throw new IllegalArgumentException("--ingest sessionless needs --via tools: over MCP every write has a session");
        }
        return switch (via) {
            case TOOLS -> new InProcess(store, project, embedder, caller, settings);
            case MCP -> new OverStdio(store, project, jar, serverEmbedder);
        };
    }

    /** The native profile's handlers over an engine built as the server builds it (Main.openEmbedded). */
    private static final class InProcess implements Session {
        private final EmbeddedStore store;
        private final Map<String, ToolHandler> tools = new HashMap<>();
        private final Caller caller;

        InProcess(Path dir, Path project, Embedder embedder, Caller caller, RecallSettings settings) {
            this.caller = caller;
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Clock clock = Clock.systemUTC();
            store = EmbeddedStore.open(dir, clock);
            Engine engine = new Engine(store.store(), store.index(), clock,
                    TagVocabulary.withProject(ProjectVocabulary.scan(project)), embedder, settings);
            ProfileContext context = ProfileContext.of(engine, MemoryRules.DEFAULT_ZONE);
            for (ToolHandler h : NativeProfile.create(context, JsonText.standard()).tools()) tools.put(h.definition().name(), h);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Reply call(String tool, Map<String, Object> arguments) {
            long t0 = System.nanoTime();
            CallToolResult r = ToolAdapter.call(tools.get(tool), arguments, caller);
            long nanos = System.nanoTime() - t0;
            if (Boolean.TRUE.equals(r.isError())) {
                throw new IllegalStateException(tool + " " + arguments + " failed: " + McpSession.text(r));
            }
            return new Reply((Map<String, Object>) r.structuredContent(), nanos);
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /**
     * {@code java -jar engram.jar --store DIR mcp} with the ENGRAM_EMBEDDER of the bench's model, started in an empty project folder
     * (so the git root of the bench's checkout does not lend the server its project vocabulary), driven by the SDK
     * client. Before the first call it waits until the server's model has loaded: a probe recall in mode hybrid
     * (with {@code as_of}, so it counts no access) must report that L3 ran.
     */
    private static final class OverStdio implements Session {
        private final McpSession session;

        OverStdio(Path dir, Path project, Path jar, String embedderSetting) {
            List<String> cmd = new ArrayList<>(List.of("sh", "-c", "cd \"$0\" && exec \"$@\"", project.toString(),
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", jar.toString(), "--store", dir.toString(), "mcp"));
            session = McpSession.start(new McpSession.ServerCommand("engram", cmd, Map.of("ENGRAM_EMBEDDER", embedderSetting)), null);
            session.initialize();
            ModelReadiness.await(session);
        }

        @Override
        public Reply call(String tool, Map<String, Object> arguments) {
            McpSession.Structured r = session.callStructured(tool, arguments);
            if (r.error() || r.content() == null) throw new IllegalStateException(tool + " " + arguments + " failed: " + r.text());
            return new Reply(r.content(), r.nanos());
        }

        @Override
        public void close() {
            session.close();
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary store " + dir, e);
        }
    }
}
