package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tenant isolation over the real HTTP server, on every tool, resource and prompt of every profile in
 * the registry (so a new tool cannot escape): two stores that differ only by a zone the caller has no
 * right on ({@code secret}: memories, a link into it from the caller's zone, a zone description) must
 * give a reader of zone {@code open}, and a writer of it, exactly the same answers to every call,
 * whether the call aims at {@code secret}, at its own zone, or at every zone. Equal answers mean
 * nothing about the other zone leaks: not its content, name, counts or existence. A call that is
 * refused changes nothing in either store.
 */
class TenantIsolationHttpTest {
    private static final String CANARY = "vault unseal quorum canary-7731";
    private static final String OPEN_ID = "m_aaaaaaaaaa";
    private static final String OPEN_ID_2 = "m_aaaaaaaaab";
    private static final String SECRET_ID = "m_bbbbbbbbbb";

    /** Tools after which the client's session id no longer works (Memento's session_rotate). */
    private static final Set<String> ENDS_THE_ID = Set.of("session_rotate");

    static List<String> profiles() {
        return ProfileRegistry.standard().names();
    }

    /** One server over one store, with a principal's client. */
    private record Side(McpHttpServer server, McpSyncClient client, Engine raw, InMemoryMemoryStore store)
            implements AutoCloseable {
        @Override
        public void close() {
            client.closeGracefully();
            server.close();
        }
    }

    private static List<ExportRecord> seedRecords() {
        MutableClock clock = MutableClock.at("2026-11-30T09:00:00Z");
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine seed = new Engine(store, new InMemorySearchIndex(store), clock);
        seed.remember(RememberCommand.builder("Deploy the open service with the blue green script").zone("open")
                .key("open-deploy").build());
        seed.remember(RememberCommand.builder("The open service listens on port 8443").zone("open").key("open-port").build());
        seed.remember(RememberCommand.builder("Deploy the secret service after the " + CANARY).zone("secret")
                .key("canary-key").build());
        List<ExportRecord> raw = new ArrayList<>();
        seed.export(null, raw::add);
        Map<String, String> ids = Map.of("open-deploy", OPEN_ID, "open-port", OPEN_ID_2, "canary-key", SECRET_ID);
        List<ExportRecord> fixed = new ArrayList<>();
        for (ExportRecord r : raw) {
            Memory m = r.memory();
            fixed.add(new ExportRecord(withId(m, ids.get(m.key())), List.of(), List.of()));
        }
        return fixed;
    }

    private static Memory withId(Memory m, String id) {
        return m.toBuilder().id(id).build();
    }

    private static Side start(String profile, boolean withSecret, Grants grants) throws Exception {
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine raw = new Engine(store, new InMemorySearchIndex(store), clock);
        List<ExportRecord> records = seedRecords().stream()
                .filter(r -> withSecret || !r.memory().zone().equals("secret")).toList();
        raw.importAll(new ImportCommand(records, null, false));
        if (withSecret) {
            raw.link(new LinkCommand(OPEN_ID, SECRET_ID, EdgeType.RELATED, "open", false));
            raw.zoneAdmin().create("secret", "the " + CANARY, "where the " + CANARY + " lives");
        }
        var issued = raw.principals().add("caller", grants);
        Engine guarded = Boolean.getBoolean("engram.test.unguarded") ? raw : raw.guarded(Access::current);
        // each side its own project folder: the toon profile keeps its capture log, vault and backups there
        java.nio.file.Path project = java.nio.file.Files.createTempDirectory("engram-tenants-");
        project.toFile().deleteOnExit();
        var context = new ProfileContext(() -> guarded, "open").withSettings(Map.of(
                dev.engram.mcp.profile.toon.ToonProfile.PROJECT_SETTING, project.toString(),
                dev.engram.mcp.profile.toon.ToonProfile.MEMORY_DIR_SETTING, project.resolve(".toon-memory/memory").toString()));
        var tool = ProfileRegistry.standard().create(profile, context, JsonText.standard());
        McpHttpServer server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.none(), false,
                List.of(), List.of(), true), tool, "test", McpJsonDefaults.getMapper(), raw.principals(), ServerStatus.unknown());
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                        .endpoint("/mcp").httpRequestCustomizer((b, method, uri, body, ctx) ->
                                b.header("Authorization", "Bearer " + issued.token())).build())
                .requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return new Side(server, client, raw, store);
    }

    @ParameterizedTest(name = "{0}: a reader of zone open")
    @MethodSource("profiles")
    void aReaderLearnsNothingOfAnotherZoneAndWritesNothing(String profile) throws Exception {
        isolated(profile, new Grants(Map.of("open", Right.READ), null), true);
    }

    @ParameterizedTest(name = "{0}: a writer of zone open")
    @MethodSource("profiles")
    void aWriterOfOneZoneLearnsNothingOfAnother(String profile) throws Exception {
        isolated(profile, new Grants(Map.of("open", Right.WRITE), null), false);
    }

    private void isolated(String profile, Grants grants, boolean readOnly) throws Exception {
        try (Side a = start(profile, true, grants); Side b = start(profile, false, grants)) {
            String secretBefore = secretZone(a);
            String openBefore = openZone(a);
            List<McpSchema.Tool> tools = a.client().listTools().tools();
            assertEquals(names(tools), names(b.client().listTools().tools()));
            List<String> differences = new ArrayList<>();
            for (McpSchema.Tool tool : tools) {
                if (ENDS_THE_ID.contains(tool.name())) continue; // called last, below
                for (String target : readOnly ? List.of("secret", "open") : List.of("secret")) {
                    Map<String, Object> args = arguments(tool.inputSchema(), target);
                    String ra = answer(a.client().callTool(CallToolRequest.builder(tool.name()).arguments(args).build()));
                    String rb = answer(b.client().callTool(CallToolRequest.builder(tool.name()).arguments(args).build()));
                    assertFalse(ra.contains("failed inside the server"), tool.name() + " " + args + ": " + ra);
                    assertFalse(ra.contains("canary-7731"), tool.name() + " leaked the secret zone's content: " + ra);
                    if (!ra.equals(rb)) differences.add(tool.name() + " " + target + ":\n  with secret: " + ra + "\n  without:     " + rb);
                }
            }
            for (McpSchema.Resource r : a.client().listResources().resources()) {
                String ra = unordered(masked(a.client().readResource(new McpSchema.ReadResourceRequest(r.uri())).contents().toString()));
                String rb = unordered(masked(b.client().readResource(new McpSchema.ReadResourceRequest(r.uri())).contents().toString()));
                assertFalse(ra.contains("canary-7731"), r.uri() + ": " + ra);
                if (!ra.equals(rb)) differences.add("resource " + r.uri() + ":\n  " + ra + "\n  " + rb);
            }
            for (McpSchema.Prompt p : a.client().listPrompts().prompts()) {
                for (String target : List.of("secret", "open")) {
                    Map<String, Object> args = new LinkedHashMap<>();
                    if (p.arguments() != null) p.arguments().forEach(arg -> args.put(arg.name(), text(arg.name(), target)));
                    String ra = masked(a.client().getPrompt(new McpSchema.GetPromptRequest(p.name(), args)).messages().toString());
                    String rb = masked(b.client().getPrompt(new McpSchema.GetPromptRequest(p.name(), args)).messages().toString());
                    assertFalse(ra.contains("canary-7731"), p.name() + ": " + ra);
                    if (!ra.equals(rb)) differences.add("prompt " + p.name() + " " + target + ":\n  " + ra + "\n  " + rb);
                }
            }
            // a tool that retires the session id the client calls with goes last and once: the SDK's Java client keeps the id
            // initialize gave it, so no call could follow (its arguments name no zone, so one call covers both targets)
            for (McpSchema.Tool tool : tools) {
                if (!ENDS_THE_ID.contains(tool.name())) continue;
                Map<String, Object> args = arguments(tool.inputSchema(), "secret");
                String ra = answer(a.client().callTool(CallToolRequest.builder(tool.name()).arguments(args).build()));
                String rb = answer(b.client().callTool(CallToolRequest.builder(tool.name()).arguments(args).build()));
                assertFalse(ra.contains("failed inside the server") || ra.contains("canary-7731"), tool.name() + ": " + ra);
                if (!ra.equals(rb)) differences.add(tool.name() + ":\n  with secret: " + ra + "\n  without:     " + rb);
            }
            assertTrue(differences.isEmpty(), "answers differ with and without the forbidden zone:\n" + String.join("\n", differences));
            assertEquals(secretBefore, secretZone(a), "the secret zone changed");
            if (readOnly) assertEquals(openBefore, openZone(a), "a reader changed its zone");
        }
    }

    private static Set<String> names(List<McpSchema.Tool> tools) {
        return tools.stream().map(McpSchema.Tool::name).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static String secretZone(Side s) {
        return snapshot(s, "secret");
    }

    private static String openZone(Side s) {
        return snapshot(s, "open");
    }

    /** What a zone holds that a caller could change: memories, their content and state, edges, versions. */
    private static String snapshot(Side s, String zone) {
        StringBuilder b = new StringBuilder();
        s.store().forEach(zone, m -> b.append(m.id()).append(' ').append(m.key()).append(' ').append(m.status())
                .append(' ').append(m.content()).append(' ').append(m.tags()).append(' ').append(m.updatedAt())
                .append(' ').append(s.store().edges(m.id())).append(' ').append(s.store().versions(m.id()).size()).append('\n'));
        b.append(s.store().zoneInfo(zone));
        return b.toString();
    }

    /** The result's text, with the one random part a correct answer may hold (a new memory's id) masked. */
    private static String answer(CallToolResult r) {
        StringBuilder b = new StringBuilder(Boolean.TRUE.equals(r.isError()) ? "ERROR " : "OK ");
        for (Content c : r.content()) {
            if (c instanceof TextContent t) b.append(t.text());
        }
        if (r.structuredContent() != null) b.append(" | ").append(r.structuredContent());
        return masked(b.toString());
    }

    /** New memories' ids and generated keys are random: masked, the rest must match to the byte. */
    private static final java.util.regex.Pattern FLAT_ID_OBJECT = java.util.regex.Pattern.compile("\\{\"id\":\"[^{}]*\\}");

    /**
     * The text with its flat {@code {"id": …}} objects (the viewer snapshot's nodes) in sorted order: a memory the
     * writer just made has a random id, so where it falls among equally ranked nodes differs between the two sides,
     * while every object's content is still compared.
     */
    private static String unordered(String text) {
        java.util.regex.Matcher m = FLAT_ID_OBJECT.matcher(text);
        List<String> objects = new ArrayList<>();
        while (m.find()) objects.add(m.group());
        if (objects.size() < 2) return text;
        List<String> sorted = new ArrayList<>(objects);
        java.util.Collections.sort(sorted);
        StringBuilder out = new StringBuilder();
        m.reset();
        int i = 0;
        while (m.find()) m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(sorted.get(i++)));
        m.appendTail(out);
        return out.toString();
    }

    /**
     * The text with what differs between two correct answers masked: a new memory's id, a checkpoint's, the
     * client's MCP session id, the wall-clock name and folder of a backup file (each side has its own), and when a
     * session id was rotated.
     */
    private static String masked(String text) {
        return text.replaceAll("m_(?!aaaaaaaaa[ab]|bbbbbbbbbb)[a-z2-7]{10}", "m_NEW")
                .replaceAll("(rotatedAt\"?(: \"|=))[0-9T:.Z-]+", "$1TIME")
                .replaceAll("(utc_time\"?(: \"|=))\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}", "$1TIME") // the clock moves between the two calls
                .replaceAll("checkpoint-[0-9a-f]{8}", "checkpoint-NEW")
                .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "SESSION")
                .replaceAll("engram-\\d{4}-\\d{2}-\\d{2}T[0-9.-]+Z\\.jsonl", "engram-TIME.jsonl")
                .replaceAll("/[^\\s|]*engram-tenants-[0-9]+", "PROJECT");
    }

    /** Arguments for every property of the schema, aimed at {@code target}'s zone and memories. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> arguments(Map<String, Object> schema, String target) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (schema != null && schema.get("properties") instanceof Map<?, ?> props) {
            ((Map<String, Object>) props).forEach((name, def) -> out.put(name, value(name, (Map<String, Object>) def, target)));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object value(String name, Map<String, Object> def, String target) {
        Object type = def.get("type");
        if (type instanceof List<?> l) type = l.get(0);
        if (def.get("enum") instanceof List<?> options && !options.isEmpty()) return options.get(0);
        if ("integer".equals(type) || "number".equals(type)) return 5;
        if ("boolean".equals(type)) return true;
        if ("array".equals(type)) {
            Map<String, Object> items = def.get("items") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of("type", "string");
            return List.of(value(name, items, target));
        }
        if ("object".equals(type)) {
            Map<String, Object> obj = new LinkedHashMap<>();
            if (def.get("properties") instanceof Map<?, ?> props) {
                ((Map<String, Object>) props).forEach((n, d) -> obj.put(n, value(n, (Map<String, Object>) d, target)));
            }
            return obj;
        }
        return text(name, target);
    }

    /** A string for a field by its name: a zone, a memory reference, or words that match both zones' memories. */
    static String text(String name, String target) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        boolean secret = target.equals("secret");
        if (n.contains("zone")) return target;
        if (n.equals("id") || n.endsWith("id") || n.endsWith("ids") || n.equals("from") || n.equals("to") || n.equals("ref")) {
            return secret ? SECRET_ID : OPEN_ID;
        }
        if (n.contains("key")) return secret ? "canary-key" : "open-deploy";
        if (n.contains("name") || n.contains("entit") || n.equals("source") || n.equals("target")) {
            return secret ? "canary-key" : "open-deploy";
        }
        return "deploy service vault unseal";
    }
}
