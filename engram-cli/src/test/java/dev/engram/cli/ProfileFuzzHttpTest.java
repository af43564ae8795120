package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.access.Access;
import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.http.ServerLimits;
import dev.engram.mcp.http.ServerStatus;
import dev.engram.mcp.http.TokenSet;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.mcp.profile.toon.ToonProfile;
import dev.engram.store.EmbeddedStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every tool of every registered profile, called over the real HTTP server on the real embedded store
 * (SQLite + Lucene) with arguments generated from the tool's own input schema by a seeded generator:
 * well-shaped values, wrong types, missing required and unknown fields, huge (~1 MB) and empty strings,
 * unicode edge cases (lone surrogates, RTL overrides, zero-width, NUL) and Lucene query syntax.
 * Every answer must be a result or an {@code isError} with a message (under 4,000 characters: a brain-tools refusal lists each failed item); no text may hold a stack trace or a
 * Java class name; no call may fail inside the server; a refused call must leave the store exactly as it
 * was (export and zones compared before and after); and the server must still answer a ping and a
 * known-good call afterwards.
 *
 * <p>{@code ToolFuzzTest} (engram-mcp) calls every profile's tools many more times in process on the in-memory fakes;
 * this one covers the HTTP transport and the real store at a modest count.
 * {@code -Dengram.fuzz.cases=N} (default 30 per tool) and {@code -Dengram.fuzz.seed=S} (default fixed)
 * choose the run; a failure names the seed, the tool and the arguments (huge strings abbreviated).
 */
class ProfileFuzzHttpTest {
    private static final long SEED = Long.getLong("engram.fuzz.seed", 0x5EED_F022L);
    private static final int CASES = Integer.getInteger("engram.fuzz.cases", 30);
    /** A Java stack trace, an exception's class name or a JDK package in any answer means an error leaked unhandled. */
    private static final Pattern LEAK = Pattern.compile("Exception|\\bat dev\\.engram|java\\.lang|java\\.util|\\tat |\\.java:\\d+"
            + "|org\\.apache|org\\.sqlite|com\\.zaxxer|tools\\.jackson|com\\.fasterxml");

    private static final List<String> WORDS = List.of("deploy", "service", "Tuesday", "blue green", "port 8443",
            "caf\u00e9", "\u6771\u4eac", "\ud55c\uad6d\uc5b4", "\u0645\u0631\u062d\u0628\u0627");
    /** Strings a careless parser, tokenizer or database driver trips over. */
    private static final List<String> UNICODE = List.of("\ud800", "\udfff", "a\ud800b", "\u202eevil\u202c", "\u200b", "\u200d\u200c",
            "a\u0000b", "\u0000", "\ufeffbom", "\ud83d\ude00\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67", "e\u0301\u0301\u0301",
            "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u05e2\u05d1\u05e8\u05d9\u05ea", "\uffff", "\r\n\t", " ", "\u2028\u2029",
            "\u1100\u1161\u11a8");
    /** Lucene and FTS query syntax, regex metacharacters, path and SQL-ish strings. */
    private static final List<String> QUERY = List.of("a AND (b OR \"c", "*", "?", "~", "\\", "a~2", "\"unterminated", "((((", "))",
            "title:deploy", "+-!", "[a TO", "{* TO *}", "/regex[/", "a^", "^1.5", "&&||", "NOT", "AND", "OR", "-",
            "' OR 1=1 --", "%_", "../../etc/passwd", "$(rm -rf /)", "deploy* AND serv?ce~1", ":", "a:b:c", "\"\"", "/",
            "!@#$%^&*()", "deploy NEAR/3 service", "\\u0000");

    static List<String> profiles() {
        return ProfileRegistry.standard().names();
    }

    @TempDir
    Path dir;

    private record Side(McpHttpServer server, McpSyncClient client, Engine raw, EmbeddedStore store) implements AutoCloseable {
        @Override
        public void close() {
            client.closeGracefully();
            server.close();
            store.close();
        }
    }

    private Side start(String profile) throws Exception {
        Clock clock = Clock.systemUTC();
        EmbeddedStore store = EmbeddedStore.open(dir.resolve("store"), clock);
        Engine raw = new Engine(store.store(), store.index(), clock);
        raw.remember(RememberCommand.builder("Deploy the service with the blue green script on Tuesday").zone("default")
                .key("deploy").build());
        raw.remember(RememberCommand.builder("The service listens on port 8443").zone("default").key("port").build());
        raw.remember(RememberCommand.builder("The team in \u6771\u4eac reviews caf\u00e9 orders").zone("team").key("tokyo").build());
        // what `engram serve --no-auth` serves: the guarded engine, with every right for its one loopback caller
        Engine guarded = raw.guarded(Access::current);
        Path project = Files.createDirectories(dir.resolve("project"));
        ProfileContext context = new ProfileContext(() -> guarded, "default").withSettings(Map.of(
                ToonProfile.PROJECT_SETTING, project.toString(),
                ToonProfile.MEMORY_DIR_SETTING, project.resolve(".toon-memory/memory").toString()));
        var tools = ProfileRegistry.standard().create(profile, context, JsonText.standard());
        ServerLimits unlimited = new ServerLimits(0, 1, ServerLimits.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(1));
        McpHttpServer server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.none(), true,
                List.of(), List.of(), false, unlimited), tools, "test", McpJsonDefaults.getMapper(), raw.principals(), ServerStatus.unknown());
        return new Side(server, connect(server), raw, store);
    }

    private static McpSyncClient connect(McpHttpServer server) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").build()).requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    /**
     * Tools whose success retires the session id the client calls with (Memento's session_rotate): the SDK's Java client
     * keeps the id initialize gave it, so the fuzzer goes on with a new session after each one.
     */
    private static final java.util.Set<String> ENDS_THE_ID = java.util.Set.of("session_rotate");

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void everyToolAnswersEveryFuzzedCallCleanly(String profile) throws Exception {
        List<McpSyncClient> replaced = new ArrayList<>();
        try (Side s = start(profile)) {
            McpSyncClient client = s.client();
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertFalse(tools.isEmpty(), profile + " lists no tools");
            List<String> problems = new ArrayList<>();
            // every schema, and each answer that is not an error against its tool's output schema: what a client checks
            JsonSchemaValidator schemas = McpJsonDefaults.getSchemaValidator();
            for (McpSchema.Tool tool : tools) {
                schemas.assertConforms(profile + "/" + tool.name() + " input", tool.inputSchema());
                if (tool.outputSchema() != null) schemas.assertConforms(profile + "/" + tool.name() + " output", tool.outputSchema());
            }
            int checkedAnswers = 0;
            for (McpSchema.Tool tool : tools) {
                Random random = new Random(SEED ^ (profile + "/" + tool.name()).hashCode());
                for (int i = 0; i < CASES; i++) {
                    Kind kind = Kind.values()[i % Kind.values().length];
                    Map<String, Object> args = new Generator(random, tool.inputSchema()).arguments(kind);
                    String where = "seed " + SEED + " case " + i + " (" + kind + ") " + profile + "/" + tool.name() + " "
                            + abbreviated(String.valueOf(args));
                    String before = fingerprint(s.raw());
                    CallToolResult r;
                    long started = System.nanoTime();
                    try {
                        r = client.callTool(CallToolRequest.builder(tool.name()).arguments(args).build());
                        long ms = (System.nanoTime() - started) / 1_000_000;
                        if (ms > 2_000) System.err.println("fuzz: slow call (" + ms + " ms): " + where);
                    } catch (RuntimeException e) {
                        problems.add(where + ": the call got no answer: " + e);
                        continue;
                    }
                    String text = text(r);
                    if (LEAK.matcher(text).find()) problems.add(where + ": leaked internals: " + abbreviated(text));
                    if (text.contains("failed inside the server")) problems.add(where + ": failed inside the server: " + text);
                    if (Boolean.TRUE.equals(r.isError())) {
                        if (text.isBlank()) problems.add(where + ": an error without a message");
                        // a refusal quotes what it refused in short: a 1 MB argument must not come back whole
                        if (text.length() >= 4_000) problems.add(where + ": a refusal of " + text.length() + " chars: " + abbreviated(text));
                        String after = fingerprint(s.raw());
                        if (!before.equals(after)) problems.add(where + ": a refused call changed the store: " + abbreviated(text));
                    }
                    if (!Boolean.TRUE.equals(r.isError()) && tool.outputSchema() != null) {
                        JsonSchemaValidator.ValidationResponse v = schemas.validate(tool.outputSchema(), r.structuredContent());
                        if (!v.valid()) problems.add(where + ": the answer does not match the output schema: " + v.errorMessage());
                        checkedAnswers++;
                    }
                    if (ENDS_THE_ID.contains(tool.name()) && !Boolean.TRUE.equals(r.isError())) {
                        client = connect(s.server());
                        replaced.add(client);
                    }
                    try {
                        client.ping();
                    } catch (RuntimeException e) {
                        fail(where + ": the server stopped answering ping: " + e);
                    }
                }
            }
            // the server still does real work after all of it (valid calls may have forgotten the seeded memories)
            assertEquals(tools.stream().map(McpSchema.Tool::name).toList(),
                    client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
            assertTrue(s.raw().remember(RememberCommand.builder("The fuzzed server still stores this").zone("default").build())
                    .memory().id().startsWith("m_"), "the store still takes writes");
            long withSchema = tools.stream().filter(t -> t.outputSchema() != null).count();
            assertTrue(checkedAnswers >= withSchema, profile + ": only " + checkedAnswers + " answers of its " + withSchema
                    + " tools with an output schema were checked against it");
            assertEquals(List.of(), problems, problems.size() + " problems (rerun one with -Dengram.fuzz.seed=" + SEED + "):\n"
                    + String.join("\n", problems));
        } finally {
            replaced.forEach(McpSyncClient::closeGracefully);
        }
    }

    /** Access counts and decay times: the embedded store flushes a recall's access counts in the background, later. */
    private static final Pattern USAGE = Pattern.compile("usage=Usage\\[[^\\]]*\\]");

    /**
     * What a call could change: every memory (but its usage, see {@link #USAGE}) with its edges and versions, and
     * the zones with their descriptions.
     */
    private static String fingerprint(Engine raw) {
        StringBuilder b = new StringBuilder();
        raw.export(null, r -> b.append(USAGE.matcher(r.memory().toString()).replaceAll(""))
                .append(r.edges()).append(r.versions().size()).append('\n'));
        b.append(raw.zones());
        return b.toString();
    }

    private static String text(CallToolResult r) {
        StringBuilder b = new StringBuilder();
        if (r.content() != null) {
            for (Content c : r.content()) {
                if (c instanceof TextContent t) b.append(t.text());
            }
        }
        if (r.structuredContent() != null) b.append(' ').append(r.structuredContent());
        return b.toString();
    }

    private static String abbreviated(String s) {
        return s.length() <= 600 ? s : s.substring(0, 300) + "…(" + s.length() + " chars)…" + s.substring(s.length() - 200);
    }

    enum Kind { VALID, WRONG_TYPE, MISSING_REQUIRED, UNKNOWN_FIELD, HUGE, EMPTY, UNICODE, QUERY, NUMBERS, NULLS }

    /** Arguments for one schema, shaped by a case kind; every choice comes from the seeded random. */
    private static final class Generator {
        private final Random random;
        private final Map<String, Object> schema;

        Generator(Random random, Map<String, Object> schema) {
            this.random = random;
            this.schema = schema == null ? Map.of() : schema;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> arguments(Kind kind) {
            Map<String, Object> props = schema.get("properties") instanceof Map<?, ?> p ? (Map<String, Object>) p : Map.of();
            List<String> required = schema.get("required") instanceof List<?> l ? (List<String>) l : List.of();
            Map<String, Object> out = new LinkedHashMap<>();
            for (var e : props.entrySet()) {
                // required fields always, optional ones half the time, so defaults get their share of calls
                if (required.contains(e.getKey()) || random.nextBoolean()) {
                    out.put(e.getKey(), value(e.getKey(), (Map<String, Object>) e.getValue(), kind == Kind.HUGE ? Kind.VALID : kind, 0));
                }
            }
            List<String> names = new ArrayList<>(out.keySet());
            switch (kind) {
                case WRONG_TYPE -> {
                    if (!names.isEmpty()) out.put(names.get(random.nextInt(names.size())), wrongType());
                    else out.put("unexpected", wrongType());
                }
                case MISSING_REQUIRED -> {
                    if (!required.isEmpty()) out.remove(required.get(random.nextInt(required.size())));
                    else out.clear();
                }
                case UNKNOWN_FIELD -> out.put(pick(List.of("zzz", "__proto__", "constructor", "", "zone ", "\u0000k")), pick(WORDS));
                case HUGE -> {
                    // one field ~1 MB (more would pass the 4 MiB body limit, which answers 413 before any tool runs)
                    List<String> strings = names.stream().filter(n -> out.get(n) instanceof String).toList();
                    List<String> lists = names.stream().filter(n -> out.get(n) instanceof List<?>).toList();
                    if (!strings.isEmpty()) out.put(pick(strings), huge());
                    else if (!lists.isEmpty()) out.put(pick(lists), random.nextBoolean() ? List.of(huge()) : manyItems());
                    else out.put("unexpected", huge());
                }
                case EMPTY -> {
                    if (random.nextBoolean()) out.clear();
                }
                case NULLS -> {
                    if (!names.isEmpty()) out.put(names.get(random.nextInt(names.size())), null);
                }
                default -> { }
            }
            return out;
        }

        @SuppressWarnings("unchecked")
        private Object value(String name, Map<String, Object> def, Kind kind, int depth) {
            Object type = def.get("type");
            if (type instanceof List<?> l) type = l.isEmpty() ? "string" : l.get(random.nextInt(l.size()));
            if (def.get("enum") instanceof List<?> options && !options.isEmpty()) {
                if (kind == Kind.VALID || random.nextInt(4) > 0) return options.get(random.nextInt(options.size()));
                return string(name, kind);
            }
            if ("integer".equals(type) || "number".equals(type)) return number(kind, "integer".equals(type));
            if ("boolean".equals(type)) return random.nextBoolean();
            if ("array".equals(type)) {
                Map<String, Object> items = def.get("items") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of("type", "string");
                int n = kind == Kind.EMPTY ? 0 : 1 + random.nextInt(3);
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < n; i++) list.add(value(name, items, kind, depth + 1));
                return list;
            }
            if ("object".equals(type)) {
                Map<String, Object> obj = new LinkedHashMap<>();
                if (depth < 3 && def.get("properties") instanceof Map<?, ?> props) {
                    ((Map<String, Object>) props).forEach((n, d) -> obj.put(n, value(n, (Map<String, Object>) d, kind, depth + 1)));
                }
                return obj;
            }
            return string(name, kind);
        }

        private Object number(Kind kind, boolean integer) {
            if (kind != Kind.NUMBERS && kind != Kind.WRONG_TYPE) return 1 + random.nextInt(10);
            List<Object> odd = List.of(0, -1, -2147483648L, 2147483648L, Long.MAX_VALUE, 1.5, -0.0, 1e308, 4.9e-324, 999_999_999);
            Object v = pick(odd);
            return integer || !(v instanceof Double) ? v : v;
        }

        private String string(String name, Kind kind) {
            String n = name.toLowerCase(java.util.Locale.ROOT);
            return switch (kind) {
                case EMPTY -> random.nextBoolean() ? "" : "   ";
                case UNICODE -> pick(UNICODE) + (random.nextBoolean() ? " " + pick(WORDS) : "");
                case QUERY -> pick(QUERY);
                default -> {
                    if (n.contains("zone")) yield pick(List.of("default", "team", "nosuchzone", "Zone With Spaces"));
                    if (n.equals("id") || n.endsWith("id") || n.endsWith("ids")) yield pick(List.of("m_aaaaaaaaaa", "deploy", "port", "x"));
                    if (n.contains("key") || n.contains("name") || n.equals("from") || n.equals("to")) yield pick(List.of("deploy", "port", "tokyo", "new-key"));
                    yield pick(WORDS) + " " + pick(WORDS);
                }
            };
        }

        private String huge() {
            int size = 1_000_000 + random.nextInt(20_000);
            StringBuilder b = new StringBuilder(size + 16);
            String unit = pick(List.of("deploy ", "a", "\u6771", "x AND y OR ", "\u00e9 "));
            while (b.length() < size) b.append(unit);
            return b.toString();
        }

        /** Ten thousand short strings: a list as long as a careless loop would accept. */
        private List<String> manyItems() {
            List<String> many = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) many.add("item" + i);
            return many;
        }

        private Object wrongType() {
            return pick(List.of(42, -7.25, true, List.of("a", 1), Map.of("nested", Map.of("deep", 1)), List.of(), Map.of(), "not-a-number"));
        }

        private <T> T pick(List<T> options) {
            return options.get(random.nextInt(options.size()));
        }
    }
}
