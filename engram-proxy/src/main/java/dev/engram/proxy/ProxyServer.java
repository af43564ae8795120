package dev.engram.proxy;

import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.proxy.upstream.Catalog;
import dev.engram.proxy.upstream.ExposedTool;
import dev.engram.proxy.upstream.ProgressRelay;
import dev.engram.proxy.upstream.UpstreamConnection;
import dev.engram.proxy.upstream.UpstreamException;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's MCP server: every exposed upstream tool plus the proxy's own, registered before build,
 * and the upstreams' resources and prompts under their prefixes. {@link #follow} keeps the server's
 * lists equal to the runtime's as upstreams and proxy.json change; the SDK sends the agent
 * {@code notifications/…/list_changed} for each change (the capabilities say listChanged).
 */
public final class ProxyServer {
    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);
    public static final String NAME = "engram-proxy";
    static final String INSTRUCTIONS = "Tools named prefix__tool are other MCP servers' tools behind the Engram proxy."
            + " Large results come back compressed with a footer naming a key: continue with stm_proxy_read_more"
            + " (progressive chunks, exact original text) or pick sections with stm_proxy_select_chunks. Memories"
            + " relevant to a result may follow it in <surfaced-memories>; rate them with stm_surfacing_feedback.";

    private ProxyServer() {
    }

    public static McpSyncServer build(McpServer.SingleSessionSyncSpecification spec, ProxyRuntime runtime, String version) {
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (ExposedTool t : runtime.exposure().tools()) tools.add(proxied(runtime, t.exposed()));
        runtime.ownTools().forEach(h -> tools.add(ToolAdapter.spec(h)));
        Catalog catalog = runtime.catalog();
        return spec.serverInfo(NAME, version).instructions(INSTRUCTIONS)
                // listChanged: upstreams add tools, resources and prompts while the proxy runs, and proxy.json is reloaded;
                // subscribe: forwarded to the upstream that serves the resource (SubscribeRequestTap), its updates passed back
                .capabilities(ServerCapabilities.builder().tools(true).resources(true, true).prompts(true).build())
                // the upstream validates its own arguments, with its own dialect; ours validate in ToolArgs
                .validateToolInputs(false)
                .requestTimeout(Duration.ofSeconds(120))
                .tools(tools)
                .resources(catalog.resources().stream().map(r -> resource(runtime, r.exposed())).toList())
                .resourceTemplates(catalog.templates().stream().map(t -> template(runtime, t.exposed())).toList())
                .prompts(catalog.prompts().stream().map(p -> prompt(runtime, p.exposed())).toList())
                .build();
    }

    /**
     * From now on, each change of the runtime's exposure or catalog is applied to {@code server}:
     * what is gone is removed, what is new or different is (re)registered; the proxy's own tools stay.
     * Also applies at once whatever changed between {@link #build} and this call.
     */
    public static void follow(McpSyncServer server, ProxyRuntime runtime) {
        Sync sync = new Sync(server, runtime);
        runtime.onExposureChange(sync::apply);
        // the server sends it only if the agent subscribed to that URI
        runtime.onResourceUpdated(uri -> server.notifyResourcesUpdated(new McpSchema.ResourcesUpdatedNotification(uri)));
        sync.apply();
    }

    /**
     * {@code in} (the agent's stdin) with the agent's resource subscriptions forwarded to the upstreams:
     * one at a time, in the order sent, on a thread of their own (an upstream may be slow to answer, and
     * the stdin reader must go on). What happened goes to the log; the agent has the SDK's answer.
     */
    public static java.io.InputStream forwardingSubscriptions(java.io.InputStream in, ProxyRuntime runtime,
                                                              io.modelcontextprotocol.json.McpJsonMapper mapper) {
        java.util.concurrent.ExecutorService forwarding = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "engram-proxy-subscriptions");
            t.setDaemon(true);
            return t;
        });
        return new SubscribeRequestTap(in, mapper, (method, uri) -> forwarding.execute(() -> {
            String what = SubscribeRequestTap.SUBSCRIBE.equals(method) ? runtime.subscribe(uri) : runtime.unsubscribe(uri);
            log.info("{} {}: {}", method, uri, what);
        }));
    }

    /** What this server has registered of the runtime's lists; {@link #apply} makes it equal to them. */
    private static final class Sync {
        private final McpSyncServer server;
        private final ProxyRuntime runtime;
        private final Set<String> own;
        // guarded by this
        private final Map<String, Tool> tools = new HashMap<>();
        private final Map<String, Resource> resources = new HashMap<>();
        private final Map<String, ResourceTemplate> templates = new HashMap<>();
        private final Map<String, Prompt> prompts = new HashMap<>();

        Sync(McpSyncServer server, ProxyRuntime runtime) {
            this.server = server;
            this.runtime = runtime;
            this.own = runtime.ownTools().stream().map(h -> h.definition().name()).collect(Collectors.toSet());
            for (Tool t : server.listTools()) if (!own.contains(t.name())) tools.put(t.name(), t);
            for (Resource r : server.listResources()) resources.put(r.uri(), r);
            for (ResourceTemplate t : server.listResourceTemplates()) templates.put(t.uriTemplate(), t);
            for (Prompt p : server.listPrompts()) prompts.put(p.name(), p);
        }

        void apply() {
            // every tool added or removed below would send its own tools/list_changed: one is enough
            runtime.agentRequests().batch(this::applyNow);
        }

        private synchronized void applyNow() {
            int changes = 0;
            Map<String, Tool> wanted = new HashMap<>();
            for (ExposedTool t : runtime.exposure().tools()) wanted.put(t.name(), t.exposed());
            for (String name : List.copyOf(tools.keySet())) {
                if (!wanted.containsKey(name)) {
                    server.removeTool(name);
                    tools.remove(name);
                    changes++;
                }
            }
            for (Map.Entry<String, Tool> e : wanted.entrySet()) {
                Tool have = tools.get(e.getKey());
                if (e.getValue().equals(have)) continue;
                try {
                    if (have != null) {
                        server.removeTool(e.getKey());
                        tools.remove(e.getKey());
                    }
                    server.addTool(proxied(runtime, e.getValue()));
                    tools.put(e.getKey(), e.getValue());
                    changes++;
                } catch (RuntimeException ex) {
                    // one tool the SDK refuses must not keep the others from the agent; the next change tries again
                    log.warn("proxied tool {} could not be registered: {}", e.getKey(), ex.getMessage());
                }
            }
            Catalog catalog = runtime.catalog();
            Map<String, Resource> wantedResources = new HashMap<>();
            catalog.resources().forEach(r -> wantedResources.put(r.exposed().uri(), r.exposed()));
            changes += sync(resources, wantedResources, server::removeResource, r -> server.addResource(resource(runtime, r)));
            Map<String, ResourceTemplate> wantedTemplates = new HashMap<>();
            catalog.templates().forEach(t -> wantedTemplates.put(t.exposed().uriTemplate(), t.exposed()));
            changes += sync(templates, wantedTemplates, server::removeResourceTemplate,
                    t -> server.addResourceTemplate(template(runtime, t)));
            Map<String, Prompt> wantedPrompts = new HashMap<>();
            catalog.prompts().forEach(p -> wantedPrompts.put(p.exposed().name(), p.exposed()));
            changes += sync(prompts, wantedPrompts, server::removePrompt, p -> server.addPrompt(prompt(runtime, p)));
            if (changes > 0) log.info("proxied lists changed ({} entries); the client was notified", changes);
        }

        private static <T> int sync(Map<String, T> have, Map<String, T> wanted, java.util.function.Consumer<String> remove,
                                    java.util.function.Consumer<T> add) {
            int changes = 0;
            for (String key : List.copyOf(have.keySet())) {
                if (!wanted.containsKey(key)) {
                    remove.accept(key);
                    have.remove(key);
                    changes++;
                }
            }
            for (Map.Entry<String, T> e : wanted.entrySet()) {
                T old = have.get(e.getKey());
                if (e.getValue().equals(old)) continue;
                try {
                    if (old != null) {
                        remove.accept(e.getKey());
                        have.remove(e.getKey());
                    }
                    add.accept(e.getValue());
                    have.put(e.getKey(), e.getValue());
                    changes++;
                } catch (RuntimeException ex) {
                    log.warn("proxied entry {} could not be registered: {}", e.getKey(), ex.getMessage());
                }
            }
            return changes;
        }
    }

    /**
     * The R5 adapter for a proxied tool: no exception crosses it. The tool is looked up at call time,
     * so a call made just after a reload or list change runs against what the proxy exposes now.
     */
    static SyncToolSpecification proxied(ProxyRuntime runtime, Tool listed) {
        String name = listed.name();
        return SyncToolSpecification.builder().tool(listed).callHandler((exchange, request) -> {
            AgentRequests requests = runtime.agentRequests();
            String tag = AgentRequests.tag(request.meta());
            try {
                Optional<ExposedTool> tool = runtime.exposure().find(name);
                if (tool.isEmpty()) return AgentRequests.gone(name);
                Map<String, Object> meta = AgentRequests.untagged(request.meta());
                Object token = meta == null ? null : meta.get("progressToken");
                ProgressRelay progress = runtime.progress();
                try (ProgressRelay.Registration r = token == null ? () -> { } : progress.register(token, exchange::progressNotification)) {
                    return runtime.gateway().call(tool.get(), request.arguments(), meta, requests.cancellation(tag));
                } catch (RuntimeException e) {
                    String ref = ToolAdapter.newRef();
                    log.error("proxied tool {} failed, ref={}", name, ref, e);
                    return CallToolResult.builder().addTextContent(name + " failed inside the proxy (ref " + ref + ")")
                            .isError(true).build();
                }
            } finally {
                requests.finished(tag);
            }
        }).build();
    }

    static SyncResourceSpecification resource(ProxyRuntime runtime, Resource listed) {
        return new SyncResourceSpecification(listed, (exchange, request) -> read(runtime, request.uri()));
    }

    static SyncResourceTemplateSpecification template(ProxyRuntime runtime, ResourceTemplate listed) {
        return new SyncResourceTemplateSpecification(listed, (exchange, request) -> read(runtime, request.uri()));
    }

    static SyncPromptSpecification prompt(ProxyRuntime runtime, Prompt listed) {
        String name = listed.name();
        return new SyncPromptSpecification(listed, (exchange, request) -> {
            Catalog.ProxiedPrompt p = runtime.catalog().prompt(name).orElseThrow(() -> McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message("prompt " + name + " is no longer offered: its upstream changed or was removed; list the prompts again").build());
            UpstreamConnection u = upstreamOf(runtime, p.server());
            try {
                return u.getPrompt(p.upstreamName(), request.arguments());
            } catch (UpstreamException e) {
                throw mcpError(e);
            }
        });
    }

    /** resources/read of an exposed URI: the upstream's URI is read, and the contents come back under the exposed one. */
    static ReadResourceResult read(ProxyRuntime runtime, String exposedUri) {
        String[] parts = Catalog.split(exposedUri).orElseThrow(() -> McpError.RESOURCE_NOT_FOUND.apply(exposedUri));
        UpstreamConnection u = runtime.upstreams().stream().filter(c -> c.config().prefix().equals(parts[0])).findFirst()
                .orElseThrow(() -> McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)
                        .message("no upstream has the prefix '" + parts[0] + "' (resource " + exposedUri + "); list the resources again")
                        .build());
        ReadResourceResult r;
        try {
            r = u.readResource(parts[1]);
        } catch (UpstreamException e) {
            throw mcpError(e);
        }
        List<ResourceContents> contents = new ArrayList<>();
        for (ResourceContents c : r.contents() == null ? List.<ResourceContents>of() : r.contents()) {
            String uri = c.uri() == null ? exposedUri : Catalog.uri(parts[0], c.uri());
            if (c instanceof TextResourceContents t) {
                contents.add(new TextResourceContents(uri, t.mimeType(), t.text(), t.meta()));
            } else if (c instanceof BlobResourceContents b) {
                contents.add(new BlobResourceContents(uri, b.mimeType(), b.blob(), b.meta()));
            } else {
                contents.add(c);
            }
        }
        return new ReadResourceResult(contents, r.meta());
    }

    private static UpstreamConnection upstreamOf(ProxyRuntime runtime, String server) {
        UpstreamConnection u = runtime.upstream(server);
        if (u == null) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message("upstream '" + server + "' was removed from proxy.json").build();
        }
        return u;
    }

    /** The upstream's error as the agent's: its code when it answered with one (resource not found …), its words. */
    private static McpError mcpError(UpstreamException e) {
        Integer code = e.upstreamCode();
        return McpError.builder(code != null ? code : McpSchema.ErrorCodes.INTERNAL_ERROR).message(e.getMessage()).build();
    }
}
