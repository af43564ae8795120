package dev.engram.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.RetentionFloor;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.config.ToolOverride;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import dev.engram.proxy.pipeline.CleanStage;
import dev.engram.proxy.pipeline.CompressStage;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.pipeline.SurfaceStage;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.MemoryHit;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.ThresholdTuner;
import dev.engram.proxy.upstream.ExposureGate;
import dev.engram.proxy.upstream.ListKind;
import dev.engram.proxy.upstream.UpstreamConnection;
import dev.engram.proxy.upstream.UpstreamException;
import dev.engram.proxy.upstream.UpstreamSession;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime following its upstreams and its configuration: list_changed re-lists and re-exposes,
 * {@link ProxyRuntime#apply} touches only the upstreams that changed, the watcher applies valid edits
 * of proxy.json and refuses invalid ones, resources and prompts go through under the prefix, and
 * {@code _context_query} is the proxy's, never the upstream's.
 */
class LiveProxyTest {
    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final Map<String, Live> sessions = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> opened = new ConcurrentHashMap<>();
    private final List<String> searched = new CopyOnWriteArrayList<>();
    private ProxyRuntime runtime;

    /** A scriptable upstream whose lists change while it runs. */
    static final class Live implements UpstreamSession {
        final List<Tool> tools = new CopyOnWriteArrayList<>();
        final List<Resource> resources = new CopyOnWriteArrayList<>();
        final List<Prompt> prompts = new CopyOnWriteArrayList<>();
        final List<Map<String, Object>> arguments = new CopyOnWriteArrayList<>();
        volatile Consumer<ListKind> listener;
        volatile Consumer<String> updates;
        volatile boolean subscribable = true;
        final List<String> subscribed = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        Live(String... tools) {
            for (String t : tools) this.tools.add(tool(t));
        }

        void announce(ListKind kind) {
            listener.accept(kind);
        }

        @Override
        public List<Tool> listTools() {
            return List.copyOf(tools);
        }

        @Override
        public CallToolResult call(CallToolRequest request, Duration timeout) {
            arguments.add(request.arguments());
            return CallToolResult.builder().addTextContent("ran " + request.name()).build();
        }

        @Override
        public boolean servesResources() {
            return !resources.isEmpty();
        }

        @Override
        public boolean servesPrompts() {
            return !prompts.isEmpty();
        }

        @Override
        public List<Resource> listResources() {
            return List.copyOf(resources);
        }

        @Override
        public List<ResourceTemplate> listResourceTemplates() {
            return List.of(new ResourceTemplate("live://notes/{id}", "note", null, null, "text/plain", null));
        }

        @Override
        public List<Prompt> listPrompts() {
            return List.copyOf(prompts);
        }

        @Override
        public ReadResourceResult readResource(String uri, Duration timeout) {
            if (uri.endsWith("missing")) {
                throw UpstreamException.errorAnswer("upstream 'up' answered with an error: no such note",
                        McpError.RESOURCE_NOT_FOUND.apply(uri));
            }
            return new ReadResourceResult(List.of(new TextResourceContents(uri, "text/plain", "text of " + uri)));
        }

        @Override
        public GetPromptResult getPrompt(String name, Map<String, Object> args, Duration timeout) {
            return new GetPromptResult(null, List.of(new PromptMessage(McpSchema.Role.USER, new TextContent(name + " " + args))));
        }

        @Override
        public void onListChanged(Consumer<ListKind> l) {
            listener = l;
        }

        @Override
        public boolean subscribesResources() {
            return subscribable;
        }

        @Override
        public void subscribe(String uri, Duration timeout) {
            if (uri.endsWith("refused")) throw UpstreamException.errorAnswer("upstream 'up' answered with an error: no such resource", null);
            subscribed.add(uri);
        }

        @Override
        public void unsubscribe(String uri, Duration timeout) {
            subscribed.remove(uri);
        }

        @Override
        public void onResourceUpdated(Consumer<String> l) {
            updates = l;
        }

        @Override
        public boolean alive() {
            return !closed;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static Tool tool(String name) {
        return Tool.builder(name, Map.of("type", "object", "properties", Map.of("path", Map.of("type", "string"))))
                .description("does " + name).build();
    }

    private static UpstreamConfig upstream(String name, String prefix) {
        return UpstreamConfig.of(name, prefix, new UpstreamTransport.Stdio("node", List.of(name + ".js"), List.of()));
    }

    // upstreams whose start waits for the test to count their latch down
    private final Map<String, java.util.concurrent.CountDownLatch> slowStarts = new ConcurrentHashMap<>();

    private UpstreamConnection connection(UpstreamConfig u) {
        return new UpstreamConnection(u, cfg -> {
            java.util.concurrent.CountDownLatch hold = slowStarts.get(cfg.name());
            if (hold != null) {
                try {
                    hold.await(20, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            opened.computeIfAbsent(cfg.name(), k -> new AtomicInteger()).incrementAndGet();
            Live live = sessions.computeIfAbsent(cfg.name() + "#" + opened.get(cfg.name()).get(), k -> new Live("t"));
            sessions.put(cfg.name(), live);
            return live;
        }, clock, Duration.ofSeconds(5));
    }

    private ProxyRuntime start(ProxyConfig config) {
        return start(config, null);
    }

    /** {@code wait}: how long connectAll waits (null: until every upstream connected or failed). */
    private ProxyRuntime start(ProxyConfig config, Duration wait) {
        JsonText json = JsonText.standard();
        ProxySettings settings = ProxySettings.defaults();
        ProxyStats stats = new ProxyStats(dir, clock);
        OriginalStore originals = new OriginalStore(clock, () -> "k1");
        Surfacer surfacer = new Surfacer(settings.surfacing(), (q, n) -> {
            searched.add(q);
            return List.of(new MemoryHit("m1", "warning", "The deploy checklist lives in the runbook", 5.0));
        }, clock, new ThresholdTuner(settings.surfacing(), stats), stats, () -> "s1");
        Pipeline pipeline = new Pipeline(List.of(new CleanStage(), new CompressStage(new Compressor(json.mapper(), originals,
                new RetentionFloor(0.65), 4000)), new SurfaceStage(surfacer)));
        runtime = new ProxyRuntime(config.upstreams().stream().map(this::connection).toList(), config, this::connection,
                new ExposureGate(json.mapper()), pipeline, originals, new ResponseCache(dir, clock), stats, surfacer, settings, json,
                new dev.engram.proxy.stats.ProposalQueue(dir, clock, () -> "p1"), new dev.engram.proxy.upstream.ProgressRelay());
        if (wait == null) {
            runtime.connectAll();
        } else {
            runtime.connectAll(wait);
        }
        return runtime;
    }

    @Test
    void anUpstreamSlowToStartHoldsNeitherTheStartNorTheOthersAndJoinsWhenItConnects() {
        java.util.concurrent.CountDownLatch slow = new java.util.concurrent.CountDownLatch(1);
        slowStarts.put("slow", slow);
        long t0 = System.nanoTime();
        ProxyRuntime r = start(new ProxyConfig(List.of(upstream("fast", "fa"), upstream("slow", "sl"))), Duration.ofMillis(500));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 5_000, "the start waited " + ms + " ms for a server that does not come up");
        assertTrue(r.exposure().find("fa__t").isPresent(), "the healthy upstream is served at once");
        assertTrue(r.exposure().find("sl__t").isEmpty());
        String health = r.health().text();
        assertTrue(health.contains("slow: still connecting"), health);
        List<String> changes = new CopyOnWriteArrayList<>();
        r.onExposureChange(() -> changes.add("changed"));
        slow.countDown();
        eventually(() -> r.exposure().find("sl__t").isPresent(), "the slow upstream's tools are added when it connects");
        eventually(() -> !changes.isEmpty(), "the listeners (the server, which tells the agent) hear of it");
        assertTrue(r.health().text().contains("slow: connected"), r.health().text());
    }

    @AfterEach
    void stop() {
        if (runtime != null) runtime.close();
    }

    /** The runtime applies changes on a background thread; this waits for one (no timing is asserted). */
    private static void eventually(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError(what);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void aToolTheUpstreamAddsIsExposedAfterItsListChangedAndListenersHear() {
        start(new ProxyConfig(List.of(upstream("up", "up"))));
        AtomicInteger heard = new AtomicInteger();
        runtime.onExposureChange(heard::incrementAndGet);
        assertTrue(runtime.exposure().find("up__t").isPresent());
        assertTrue(runtime.exposure().find("up__added").isEmpty());
        Live live = sessions.get("up");
        live.tools.add(tool("added"));
        live.announce(ListKind.TOOLS);
        eventually(() -> runtime.exposure().find("up__added").isPresent(), "up__added was not exposed");
        eventually(() -> heard.get() > 0, "the listener was not told");
        assertEquals(1, opened.get("up").get(), "a list change re-lists, it does not reconnect");
        live.tools.removeIf(t -> t.name().equals("t"));
        live.announce(ListKind.TOOLS);
        eventually(() -> runtime.exposure().find("up__t").isEmpty(), "a tool the upstream dropped stays listed");
    }

    @Test
    void applyStartsStopsRestartsAndReconfiguresOnlyTheUpstreamsThatChanged() {
        UpstreamConfig up = upstream("up", "up");
        UpstreamConfig other = upstream("other", "ot");
        start(new ProxyConfig(List.of(up, other)));
        UpstreamConfig upWithOverride = new UpstreamConfig("up", "up", up.transport(), up.compression(), up.maxResultChars(),
                up.cacheTtlSeconds(), Map.of("t", new ToolOverride(null, null, null, false, "Does t, as the operator says")));
        ProxyRuntime.Reload r = runtime.apply(new ProxyConfig(List.of(upWithOverride, other, upstream("new", "nw"))));
        assertEquals(List.of("new"), r.added());
        assertEquals(List.of("up"), r.reconfigured());
        assertEquals(List.of(), r.restarted());
        eventually(() -> runtime.exposure().find("nw__t").isPresent(), "the added upstream's tools were not exposed");
        assertEquals("Does t, as the operator says", runtime.exposure().find("up__t").orElseThrow().exposed().description());
        assertEquals(1, opened.get("up").get(), "new settings, same server");
        assertEquals(1, opened.get("other").get(), "an unchanged upstream is not touched");

        Live oldUp = sessions.get("up");
        UpstreamConfig moved = new UpstreamConfig("up", "up", new UpstreamTransport.Stdio("node", List.of("elsewhere.js"), List.of()),
                up.compression(), up.maxResultChars(), up.cacheTtlSeconds(), Map.of());
        r = runtime.apply(new ProxyConfig(List.of(moved, upstream("new", "nw"))));
        assertEquals(List.of("up"), r.restarted());
        assertEquals(List.of("other"), r.removed());
        eventually(() -> opened.get("up").get() == 2, "a new transport starts a new server");
        assertTrue(oldUp.closed, "the old server is stopped");
        eventually(() -> runtime.exposure().find("ot__t").isEmpty(), "a removed upstream's tools stay listed");
        eventually(() -> runtime.exposure().find("up__t").isPresent(), "the restarted upstream's tools are gone");
        assertNull(runtime.upstream("other"));
        CallToolResult gone = runtime.gateway().call(new dev.engram.proxy.upstream.ExposedTool("ot__t", "other", tool("t"), tool("ot__t")),
                Map.of(), null);
        assertTrue(gone.isError());
        assertTrue(((TextContent) gone.content().get(0)).text().contains("removed from proxy.json"));
    }

    @Test
    void theWatcherAppliesAValidEditAndRefusesAnInvalidOneKeepingTheRunningConfig() throws Exception {
        ProxyConfigFile file = new ProxyConfigFile(dir, JsonText.standard().mapper());
        ProxyConfig first = new ProxyConfig(List.of(upstream("up", "up")));
        file.save(first);
        start(first);
        List<String> stderr = new ArrayList<>();
        ProxyConfigWatcher watcher = new ProxyConfigWatcher(file, runtime, stderr::add, null);
        assertNull(watcher.check(), "nothing changed yet");

        file.save(first.with(upstream("second", "sc"))); // written by rename, as engram proxy add does
        ProxyRuntime.Reload applied = watcher.check();
        assertEquals(List.of("second"), applied.added());
        assertTrue(stderr.get(0).contains("reloaded: applied: added second"), stderr.toString());
        eventually(() -> runtime.exposure().find("sc__t").isPresent(), "the added upstream's tools were not exposed");

        Files.writeString(file.path(), "{\"upstreams\": [{\"name\": \"up\", \"prefix\": \"up\", \"command\": \"node\", \"max_result_chars\": -5}]}");
        ProxyRuntime.Reload refused = watcher.check();
        assertNotNull(refused.refused());
        assertTrue(refused.refused().contains("max_result_chars"), refused.refused());
        assertTrue(stderr.get(1).contains("was not applied") && stderr.get(1).contains("keeps running with the previous configuration"),
                stderr.toString());
        assertEquals(2, runtime.config().upstreams().size(), "the running config stays");
        assertTrue(runtime.exposure().find("sc__t").isPresent());
        assertTrue(runtime.health().text().contains("refused"), runtime.health().text());
        assertEquals(false, ((Map<?, ?>) runtime.health().data().get("config_reload")).get("ok"));
        assertNull(watcher.check(), "the same bad text is refused once, not every second");

        Files.delete(file.path());
        assertNull(watcher.check(), "a file that disappears is not an edit");
        assertEquals(2, runtime.config().upstreams().size());
        file.save(first);
        assertEquals(List.of("second"), watcher.check().removed());
        watcher.close();
    }

    @Test
    void contextQueryIsAdvertisedStrippedAndSearchedUnlessTheUpstreamOwnsIt() {
        start(new ProxyConfig(List.of(upstream("up", "up")), true, true));
        Live live = sessions.get("up");
        live.tools.add(Tool.builder("own", Map.of("type", "object", "properties",
                Map.of("_context_query", Map.of("type", "integer")))).build());
        live.announce(ListKind.TOOLS);
        eventually(() -> runtime.exposure().find("up__own").isPresent(), "up__own was not exposed");
        Map<?, ?> props = (Map<?, ?>) runtime.exposure().find("up__t").orElseThrow().exposed().inputSchema().get("properties");
        assertEquals("string", ((Map<?, ?>) props.get("_context_query")).get("type"));
        assertTrue(props.containsKey("path"), "the upstream's own properties stay");
        Map<?, ?> own = (Map<?, ?>) runtime.exposure().find("up__own").orElseThrow().exposed().inputSchema().get("properties");
        assertEquals("integer", ((Map<?, ?>) own.get("_context_query")).get("type"), "an upstream property of that name is never replaced");

        CallToolResult r = runtime.gateway().call(runtime.exposure().find("up__t").orElseThrow(),
                Map.of("path", "/tmp/x", "_context_query", "deploy checklist runbook"), null);
        assertFalse(Boolean.TRUE.equals(r.isError()));
        assertEquals(Map.of("path", "/tmp/x"), live.arguments.get(0), "the upstream never sees _context_query");
        assertEquals(List.of("deploy checklist runbook"), searched, "it is the surfacing query, even for a small result");
        assertTrue(((TextContent) r.content().get(0)).text().contains("<surfaced-memories>"));

        runtime.gateway().call(runtime.exposure().find("up__own").orElseThrow(), Map.of("_context_query", 7), null);
        assertEquals(Map.of("_context_query", 7), live.arguments.get(1), "the upstream's own argument is passed on");

        CallToolResult bad = runtime.gateway().call(runtime.exposure().find("up__t").orElseThrow(), Map.of("_context_query", 7), null);
        assertTrue(bad.isError(), "a non-string _context_query is refused with what to send");
        assertTrue(((TextContent) bad.content().get(0)).text().contains("must be a string"));
    }

    @Test
    void resourcesTemplatesAndPromptsGoThroughUnderThePrefixWithUpstreamErrors() {
        start(new ProxyConfig(List.of(upstream("up", "up"), upstream("two", "tw"))));
        for (String name : List.of("up", "two")) {
            Live live = sessions.get(name);
            live.resources.add(new Resource("live://notes/readme", "readme", "Readme", null, "text/plain", null, null, null));
            live.prompts.add(new Prompt("greet", "Greets", List.of()));
            live.announce(ListKind.RESOURCES);
            live.announce(ListKind.PROMPTS);
        }
        eventually(() -> runtime.catalog().resources().size() == 2 && runtime.catalog().prompts().size() == 2,
                "both upstreams' resources and prompts were not listed: " + runtime.catalog());
        assertEquals(List.of("tw+live://notes/readme", "up+live://notes/readme"),
                runtime.catalog().resources().stream().map(r -> r.exposed().uri()).sorted().toList(), "one URI, two upstreams, no collision");
        assertEquals("[up] Readme", runtime.catalog().resources().stream().filter(r -> r.server().equals("up")).findFirst()
                .orElseThrow().exposed().title());
        assertTrue(runtime.catalog().templates().stream().anyMatch(t -> t.exposed().uriTemplate().equals("tw+live://notes/{id}")));
        assertEquals(List.of("tw__greet", "up__greet"), runtime.catalog().prompts().stream().map(p -> p.exposed().name()).sorted().toList());

        ReadResourceResult read = ProxyServer.read(runtime, "tw+live://notes/readme");
        TextResourceContents c = (TextResourceContents) read.contents().get(0);
        assertEquals("tw+live://notes/readme", c.uri(), "contents come back under the listed URI");
        assertEquals("text of live://notes/readme", c.text(), "the upstream read its own URI");
        McpError missing = assertThrows(McpError.class, () -> ProxyServer.read(runtime, "up+live://notes/missing"));
        assertEquals(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND, missing.getJsonRpcError().code(), "the upstream's code is passed on");
        assertTrue(missing.getMessage().contains("no such note"), missing.getMessage());
        McpError unknown = assertThrows(McpError.class, () -> ProxyServer.read(runtime, "zz+live://notes/readme"));
        assertTrue(unknown.getMessage().contains("no upstream has the prefix 'zz'"), unknown.getMessage());

        GetPromptResult p = ProxyServer.prompt(runtime, runtime.catalog().prompt("up__greet").orElseThrow().exposed()).promptHandler()
                .apply(null, new McpSchema.GetPromptRequest("up__greet", Map.of("who", "ann")));
        assertEquals("greet {who=ann}", ((TextContent) p.messages().get(0).content()).text(), "the upstream got its own prompt name");
    }

    /** stm_proxy_describe_tool of a proxied tool, {@code part}, as its structured page. */
    private Map<String, Object> describe(String name, String part) {
        dev.engram.mcp.tool.ToolHandler tool = runtime.ownTools().stream()
                .filter(h -> h.definition().name().equals("stm_proxy_describe_tool")).findFirst().orElseThrow();
        return tool.call(dev.engram.mcp.tool.ToolArgs.of(tool.definition(), Map.of("name", name, "part", part))).structured();
    }

    @Test
    void describeToolGivesTheOverrideAsListedAndTheReplacedUpstreamTextOnlyWhenProxyJsonAllowsIt() {
        UpstreamConfig up = upstream("up", "up");
        UpstreamConfig overridden = new UpstreamConfig("up", "up", up.transport(), up.compression(), up.maxResultChars(),
                up.cacheTtlSeconds(), Map.of("t", new ToolOverride(null, null, null, false, "Operator text for t")));
        start(new ProxyConfig(List.of(overridden, upstream("plain", "pl"))));
        assertEquals("Operator text for t", describe("up__t", "description").get("text"),
                "description is what the tool is listed with: the override (memtomem-stm's describe_tool)");
        assertEquals("does t", describe("pl__t", "description").get("text"), "without an override, the upstream's text");
        RuntimeException withheld = assertThrows(RuntimeException.class, () -> describe("up__t", "upstream_description"));
        assertTrue(withheld.getMessage().contains("recover_upstream_description"), withheld.getMessage());
        assertFalse(withheld.getMessage().contains("does t"), "the refusal never shows the withheld text");

        runtime.apply(new ProxyConfig(List.of(overridden, upstream("plain", "pl")), true, false, true));
        Map<String, Object> page = describe("up__t", "upstream_description");
        assertEquals("does t", page.get("text"), "with the operator's opt-in, the text the override replaced");
        assertEquals("upstream_description", page.get("part"));
        assertEquals("text", page.get("format"));
        assertEquals("Operator text for t", describe("up__t", "description").get("text"), "description still respects the override");
        RuntimeException noOverride = assertThrows(RuntimeException.class, () -> describe("pl__t", "upstream_description"));
        assertTrue(noOverride.getMessage().contains("description_override"), "nothing was replaced, so there is nothing to recover");
        assertTrue(((String) describe("up__t", "input_schema").get("text")).contains("\"path\""));
    }

    @Test
    void subscriptionsGoToTheUpstreamThatServesTheResourceAndItsUpdatesComeBackUnderThePrefix() {
        start(new ProxyConfig(List.of(upstream("up", "up"), upstream("two", "tw"))));
        List<String> told = new CopyOnWriteArrayList<>();
        runtime.onResourceUpdated(told::add);
        Live up = sessions.get("up");
        Live two = sessions.get("two");
        assertTrue(runtime.subscribe("up+live://notes/readme").contains("subscribed to live://notes/readme"));
        assertEquals(List.of("live://notes/readme"), up.subscribed, "the upstream subscribes to its own URI");
        assertEquals(List.of(), two.subscribed, "only the upstream that serves it");

        up.updates.accept("live://notes/readme");
        up.updates.accept("live://notes/other"); // nobody subscribed to it through the proxy
        assertEquals(List.of("up+live://notes/readme"), told, "the update comes back under the listed URI");

        assertTrue(runtime.subscribe("up+live://notes/refused").contains("could not subscribe"), "an upstream's refusal is reported");
        assertEquals(java.util.Set.of("live://notes/readme"), runtime.upstream("up").subscriptions(), "a refused one is not kept");
        assertTrue(runtime.subscribe("zz+live://notes/readme").contains("no upstream has the prefix 'zz'"));
        assertTrue(runtime.subscribe("plain-uri").contains("not a proxied resource"));
        two.subscribable = false;
        assertTrue(runtime.subscribe("tw+live://notes/readme").contains("offers no resource subscriptions"));
        assertEquals(List.of(), two.subscribed, "nothing is sent to an upstream without the capability");

        // a restarted server is subscribed again: the agent still is
        up.closed = true;
        runtime.upstream("up").connect();
        Live again = sessions.get("up");
        eventually(() -> again != up && again.subscribed.contains("live://notes/readme"), "the new session was not subscribed again");
        again.updates.accept("live://notes/readme");
        assertEquals(List.of("up+live://notes/readme", "up+live://notes/readme"), told);

        assertTrue(runtime.unsubscribe("up+live://notes/readme").contains("unsubscribed"));
        assertEquals(List.of(), again.subscribed, "the upstream is told");
        again.updates.accept("live://notes/readme");
        assertEquals(2, told.size(), "no update after the agent unsubscribed");
    }

    @Test
    void aSubscriptionMadeWhileTheUpstreamIsDownIsMadeWhenItIsBack() {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        Live live = new Live("t");
        UpstreamConnection c = new UpstreamConnection(upstream("up", "up"), cfg -> {
            if (down.get()) throw new UpstreamException("upstream 'up' failed: connection refused");
            return live;
        }, clock, Duration.ofSeconds(5));
        try {
            assertThrows(UpstreamException.class, () -> c.subscribe("live://notes/readme"));
            assertEquals(java.util.Set.of("live://notes/readme"), c.subscriptions(), "the agent is still subscribed");
            down.set(false);
            clock.advance(UpstreamConnection.MAX_BACKOFF);
            assertTrue(c.connect());
            eventually(() -> live.subscribed.contains("live://notes/readme"), "the upstream was not subscribed once it was back");
        } finally {
            c.close();
        }
    }
}
