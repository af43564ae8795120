package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.ExistingEntity;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram hook prompt|stop} end to end in-process, on a real store, with a local fake chat endpoint. */
class HookCommandsTest {
    @TempDir
    Path dir;
    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
        HookSubcommand.stdin = System.in;
    }

    private Map<String, String> env(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("ENGRAM_HOME", dir.resolve("store").toString());
        return env;
    }

    private CliRunner.Run hook(String which, String stdin, Map<String, String> env) {
        HookSubcommand.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        return new CliRunner(dir, env(env), (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null))
                .run("hook", which);
    }

    private void seed() {
        EngramConfig config = new ConfigLoader(env(Map.of()), dir, dir, "Linux").load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            opened.engine().entities().create("default", List.of(
                    new EntityDraft("iaptic-server", "Project", List.of("uses TypeScript", "deploys with Kubernetes on GKE",
                            "payments webhook retries three times", "fourth observation is not shown")),
                    new EntityDraft("Kubernetes upgrade", "Decision", List.of("we upgrade the cluster every quarter"))),
                    ExistingEntity.MERGE);
        }
    }

    /** A chat endpoint answering every request with {@code content(body)}. */
    private Map<String, String> model(Function<String, String> content) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(body);
            String c = content.apply(body).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
            byte[] out = ("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"" + c + "\"}}]}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, out.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        });
        server.start();
        return Map.of("ENGRAM_LLM_URL", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1", "ENGRAM_LLM_MODEL", "fake");
    }

    private static String event(String prompt) {
        return "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/tmp/p\",\"prompt\":\""
                + prompt + "\"}";
    }

    @Test
    void aHookGivenArgumentsItCannotParseSaysSoOnStderrAndExitsZero() {
        CliRunner runner = new CliRunner(dir, env(Map.of()), (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
        // exit 2 blocks Claude Code's prompt or makes its turn go on; Antigravity fails the model call without {}
        for (List<String> args : List.of(List.of("hook", "prompt", "--zones", "a"), List.of("hook", "stop", "--profile=toon", "--extra"),
                List.of("hook", "session-start", "claude", "--budget-tokens", "2k"), List.of("hook", "capture", "claude", "extra"),
                List.of("hook", "post-tool", "--hosts", "claude"), List.of("hook", "promt"))) {
            HookSubcommand.stdin = new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8));
            CliRunner.Run r = runner.run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), args + ": " + r.err());
            assertEquals("", r.out(), args.toString());
            String hint = "run 'engram " + String.join(" ", args.subList(0, args.get(1).equals("promt") ? 1 : 2)) + " --help' for usage";
            assertTrue(r.err().contains(hint), args + ": " + r.err());
        }
        HookSubcommand.stdin = new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8));
        CliRunner.Run agy = runner.run("hook", "session-start", "antigravity", "--budget-tokens", "2k");
        assertEquals(0, agy.exitCode(), agy.err());
        assertEquals("{}\n", agy.out(), "Antigravity's empty answer");
        assertTrue(agy.err().contains("'2k'"), agy.err());
        // commands people type still say a mistake with exit 2, and name themselves in full
        CliRunner.Run feedback = runner.run("hook", "feedback", "only-one");
        assertEquals(2, feedback.exitCode());
        assertTrue(feedback.err().contains("run 'engram hook feedback --help' for usage"), feedback.err());
        assertEquals(2, runner.run("recall", "--bogus").exitCode());
    }

    @Test
    void promptPrintsTheRelevantEntitiesInBrainToolsShape() {
        seed();
        CliRunner.Run r = hook("prompt", event("how do we deploy the iaptic-server to Kubernetes again"), Map.of());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("<memory zone=\"default\">\n  - **"), r.out());
        assertTrue(r.out().contains("  - **iaptic-server** (Project)\n    - uses TypeScript\n"), r.out());
        assertFalse(r.out().contains("fourth observation"), "at most three observations per entity");
        assertTrue(r.out().endsWith("</memory>\n"), r.out());
        assertTrue(r.out().length() <= 10_000);
    }

    @Test
    void shortPromptsAndFillerGetNothing() {
        seed();
        assertEquals("", hook("prompt", event("deploy iaptic-server"), Map.of()).out(), "under five words");
        assertEquals("", hook("prompt", event("ok thanks"), Map.of()).out());
        assertEquals("", hook("prompt", event("sounds good!"), Map.of("MEMORY_HOOK_MIN_WORDS", "1")).out(), "filler");
        assertTrue(hook("prompt", event("iaptic-server"), Map.of("MEMORY_HOOK_MIN_WORDS", "1")).out().contains("iaptic-server"));
    }

    @Test
    void withAModelOnlyTheEntitiesItChoosesArePrinted() throws Exception {
        seed();
        Map<String, String> model = model(body -> "```json\n{\"query\":\"k8s\",\"relevant\":[\"Kubernetes upgrade\"]}\n```");
        CliRunner.Run r = hook("prompt", event("when do we upgrade the Kubernetes cluster for iaptic-server"), model);
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("**Kubernetes upgrade** (Decision)"), r.out());
        assertFalse(r.out().contains("**iaptic-server**"), r.out());
        assertTrue(requests.get(0).contains("Memory candidates"), requests.get(0));
    }

    @Test
    void aBrokenModelFallsBackToTheRankedEntities() {
        seed();
        CliRunner.Run r = hook("prompt", event("how do we deploy the iaptic-server to Kubernetes again"),
                Map.of("ENGRAM_LLM_URL", "http://127.0.0.1:1/v1"));
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("**iaptic-server**"), r.out());
        assertTrue(r.err().contains("model filter skipped"), r.err());
    }

    @Test
    void badInputNeverFailsTheHook() {
        for (String stdin : List.of("", "not json", "[1,2]", "{\"prompt\": 5}", "{}")) {
            CliRunner.Run r = hook("prompt", stdin, Map.of());
            assertEquals(0, r.exitCode(), stdin);
            assertEquals("", r.out(), stdin);
            CliRunner.Run s = hook("stop", stdin, Map.of());
            assertEquals(0, s.exitCode(), stdin);
        }
        CliRunner.Run badZone = hook("prompt", event("how do we deploy the iaptic-server to Kubernetes"),
                Map.of("MEMORY_HOOK_ZONES", "Not A Zone!"));
        assertEquals(0, badZone.exitCode());
    }

    @Test
    void stopWithoutAModelDoesNothing() throws Exception {
        seed();
        Path transcript = transcript();
        CliRunner.Run r = hook("stop", "{\"transcript_path\":\"" + transcript + "\",\"cwd\":\"/work/shop\"}", Map.of());
        assertEquals(0, r.exitCode());
        assertEquals("", r.out());
        assertTrue(r.err().contains("no chat model"), r.err());
    }

    @Test
    void stopSavesWhatTheModelExtractsAndVerifiesWhatItConfirms() throws Exception {
        seed();
        Path transcript = transcript();
        Map<String, String> model = model(body -> "{\"save\":[{\"name\":\"shop: payments need idempotency keys\","
                + "\"entityType\":\"Decision\",\"observations\":[\"retries without a key charged twice\"],\"reviewInterval\":30}],"
                + "\"verify\":[\"iaptic-server\",\"no such entity\"]}");
        CliRunner.Run r = hook("stop", "{\"session_id\":\"s-42\",\"transcript_path\":\"" + transcript + "\",\"cwd\":\"/work/shop\"}", model);
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("saved [shop: payments need idempotency keys], verified [iaptic-server]"), r.err());
        assertTrue(requests.get(0).contains("Project: shop"), "the project is the cwd's last part");
        assertTrue(requests.get(0).contains("iaptic-server"), "existing names are listed for the model");
        EngramConfig config = new ConfigLoader(env(Map.of()), dir, dir, "Linux").load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            var saved = opened.engine().entities().find("default", "shop: payments need idempotency keys").orElseThrow();
            assertEquals("Decision", saved.entityType());
            assertEquals(List.of("retries without a key charged twice"), saved.observationTexts());
            assertEquals(30, saved.memory().reviewIntervalDays());
            assertTrue(saved.memory().session().contains("s-42"), saved.memory().session());
            var verified = opened.engine().entities().find("default", "iaptic-server").orElseThrow();
            assertEquals(1, verified.memory().verifyCount());
            assertEquals(14, verified.memory().reviewIntervalDays());
        }
    }

    @Test
    void stopSkipsAThinExchange() throws Exception {
        Path t = dir.resolve("thin.jsonl");
        Files.writeString(t, "{\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
                + "{\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Hello there.\"}]}}\n");
        Map<String, String> model = model(body -> "{\"save\":[],\"verify\":[]}");
        CliRunner.Run r = hook("stop", "{\"transcript_path\":\"" + t + "\"}", model);
        assertEquals(0, r.exitCode());
        assertTrue(r.err().contains("fewer than 20"), r.err());
        assertTrue(requests.isEmpty(), "no model call for a thin exchange");
    }

    private Path transcript() throws Exception {
        Path t = dir.resolve("transcript.jsonl");
        String assistant = "We tried retrying the payment webhook without an idempotency key and the customer was charged "
                + "twice, so from now on every payment request carries an idempotency key derived from the order id.";
        Files.writeString(t, "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"why were they charged twice?\"}}\n"
                + "not json at all\n"
                + "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\""
                + assistant + "\"},{\"type\":\"tool_use\",\"name\":\"Bash\",\"input\":{\"command\":\"grep -r retry\"}}]}}\n");
        return t;
    }
}
