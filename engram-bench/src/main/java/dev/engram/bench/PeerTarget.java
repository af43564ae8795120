package dev.engram.bench;

import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.Embedder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A memory server under test: how to start it, how to preload it, and which tool call writes one
 * memory or searches. Both servers receive the same memories and the same query strings.
 */
sealed interface PeerTarget permits PeerTarget.Engram, PeerTarget.ServerMemory, ToonPeer.ToonTools {

    String label();

    McpSession.ServerCommand command(Path dir);

    /** Fills the store before the server starts; returns a one-line description of what was done, or null when nothing was. */
    String preloadOffline(Path dir, List<SyntheticMemory> memories, PrintStream log) throws Exception;

    /** Fills the store (or has it read) through the running server; returns a description, or null when nothing was done. */
    String preloadOnline(McpSession session, List<SyntheticMemory> memories);

    String writeTool();

    /** How long one call may take before the client gives up. */
    default java.time.Duration requestTimeout() {
        return java.time.Duration.ofMinutes(2);
    }

    Map<String, Object> writeArguments(SyntheticMemory memory, int ordinal);

    String searchTool();

    Map<String, Object> searchArguments(String query);

    /**
     * Engram: {@code java [opts] -jar engram.jar --store DIR mcp}, preloaded by writing the same
     * SQLite record and Lucene index that {@code remember} writes, in 1,000-memory transactions,
     * before the server starts (the server then opens an up-to-date index).
     */
    record Engram(Path jar, List<String> javaOptions, long seed, Model model) implements PeerTarget {
        public Engram {
            javaOptions = List.copyOf(javaOptions);
        }

        /** Lexical: the server inherits the bench's ENGRAM_EMBEDDER. */
        Engram(Path jar, List<String> javaOptions, long seed) {
            this(jar, javaOptions, seed, null);
        }

        @Override
        public String label() {
            return "Engram";
        }

        @Override
        public McpSession.ServerCommand command(Path dir) {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(javaOptions);
            cmd.addAll(List.of("-jar", jar.toString(), "--store", dir.toString(), "mcp"));
            return new McpSession.ServerCommand(label(), cmd,
                    model == null ? Map.of() : Map.of("ENGRAM_EMBEDDER", model.serverSetting()));
        }

        @Override
        public String preloadOffline(Path dir, List<SyntheticMemory> memories, PrintStream log) throws Exception {
            Clock clock = Clock.systemUTC();
            try (OpenedStore opened = OpenedStore.embedded(dir, clock)) {
                var it = memories.iterator();
                BulkLoader.LoadResult r = new BulkLoader(seed).load(opened.store(), opened.index(), it::next,
                        memories.size(), clock.instant());
                String loaded = String.format(Locale.ROOT,
                        "EmbeddedStore, %d inserts per transaction, then index catch-up: %.1f s", BulkLoader.BATCH,
                        (r.write().toMillis() + r.catchUp().toMillis()) / 1000.0);
                if (model == null) return loaded;
                // every memory gets its vector before the server starts, so no backfill runs while it is timed
                long t0 = System.nanoTime();
                Engine engine = new Engine(opened.store(), opened.index(), clock, TagVocabulary.builtInOnly(),
                        model.preloadEmbedder(), RecallSettings.defaults());
                int embedded = BulkLoader.embedMissing(engine);
                if (model.cache() != null) model.cache().save();
                return loaded + String.format(Locale.ROOT, "; %d memories embedded with %s in %.1f s", embedded,
                        model.model().modelId(), (System.nanoTime() - t0) / 1e9);
            }
        }

        /** With a model: returns once the server's model has loaded, so that no timed recall is lexical for want of it. */
        @Override
        public String preloadOnline(McpSession session, List<SyntheticMemory> memories) {
            if (model == null) return null;
            Duration took = ModelReadiness.await(session);
            return String.format(Locale.ROOT, "model %s ready %.1f s after initialize", model.serverSetting(), took.toMillis() / 1000.0);
        }

        @Override
        public String writeTool() {
            return "remember";
        }

        @Override
        public Map<String, Object> writeArguments(SyntheticMemory m, int ordinal) {
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("content", m.content());
            args.put("type", m.type().wireName());
            if (!m.tags().isEmpty()) args.put("tags", m.tags()); // the short corpus sends content and type only
            if (m.file() != null) args.put("file", m.file());
            return args;
        }

        @Override
        public String searchTool() {
            return "recall";
        }

        @Override
        public Map<String, Object> searchArguments(String query) {
            return Map.of("query", query);
        }
    }

    /**
     * Engram's model in a peer run: the server's {@code ENGRAM_EMBEDDER}, the same model loaded in the bench, and
     * optionally a file of the preload's vectors kept between runs ({@code null}: the preload embeds every memory).
     */
    record Model(String serverSetting, Embedder model, EmbeddingCacheFile cache) {
        Embedder preloadEmbedder() {
            return cache == null ? model : cache.embedder();
        }
    }

    /**
     * {@code @modelcontextprotocol/server-memory}: one entity per memory, named by the memory's derived
     * key, typed by its type, with one observation per sentence. Preloaded through the running server
     * with {@code create_entities} batches of {@value #PRELOAD_BATCH} (its fastest documented path).
     */
    record ServerMemory(Path node, Path indexJs) implements PeerTarget {
        static final int PRELOAD_BATCH = 100;

        @Override
        public String label() {
            return "server-memory";
        }

        @Override
        public McpSession.ServerCommand command(Path dir) {
            return new McpSession.ServerCommand(label(), List.of(node.toString(), indexJs.toString()),
                    Map.of("MEMORY_FILE_PATH", dir.resolve("memory.jsonl").toString()));
        }

        @Override
        public String preloadOffline(Path dir, List<SyntheticMemory> memories, PrintStream log) {
            return null;
        }

        @Override
        public String preloadOnline(McpSession session, List<SyntheticMemory> memories) {
            long t0 = System.nanoTime();
            for (int start = 0; start < memories.size(); start += PRELOAD_BATCH) {
                List<Map<String, Object>> entities = new ArrayList<>();
                for (int i = start; i < Math.min(memories.size(), start + PRELOAD_BATCH); i++) {
                    entities.add(entity(memories.get(i), i));
                }
                McpSession.Reply r = session.call("create_entities", Map.of("entities", entities));
                if (r.error()) throw new IllegalStateException("create_entities failed: " + r.text());
            }
            return String.format(java.util.Locale.ROOT, "create_entities, %d entities per call: %.1f s",
                    PRELOAD_BATCH, Duration.ofNanos(System.nanoTime() - t0).toMillis() / 1000.0);
        }

        @Override
        public String writeTool() {
            return "create_entities";
        }

        @Override
        public Map<String, Object> writeArguments(SyntheticMemory m, int ordinal) {
            return Map.of("entities", List.of(entity(m, ordinal)));
        }

        @Override
        public String searchTool() {
            return "search_nodes";
        }

        @Override
        public Map<String, Object> searchArguments(String query) {
            return Map.of("query", query);
        }

        private static Map<String, Object> entity(SyntheticMemory m, int ordinal) {
            String slug = MemoryRules.slug(m.content());
            String suffix = "-" + Integer.toString(ordinal, 36);
            return Map.of("name", slug.substring(0, Math.min(slug.length(), 80 - suffix.length())) + suffix,
                    "entityType", m.type().wireName(),
                    "observations", List.of(m.content().split("(?<=[.;])\\s+")));
        }
    }
}
