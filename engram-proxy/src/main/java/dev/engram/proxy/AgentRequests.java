package dev.engram.proxy;

import dev.engram.mcp.server.StdioInterceptor;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the proxy does with the agent's messages before the SDK's server sees them, and with the
 * server's list notifications (see {@link StdioInterceptor}):
 * <ul>
 *   <li><b>Cancels.</b> The SDK's server ignores {@code notifications/cancelled} and never tells a tool
 *   handler its request id. So each {@code tools/call} of a proxied tool gets the agent's request id in
 *   its {@code _meta} under {@link #TAG} (the handler takes it out again before calling the upstream), and a
 *   cancel for that id completes the call's {@link #cancellation}: the upstream is told to cancel its
 *   request, and the call ends without a restart.</li>
 *   <li><b>Tools that are gone.</b> The SDK answers a call to a tool it does not have with the protocol
 *   error {@code -32602 Unknown tool: invalid_tool_name}, which names no tool. A tool may go while the
 *   agent still holds the old list (an upstream dropped it, proxy.json changed, its server is not up), so
 *   such a call gets an error result naming the tool and saying to list the tools again.</li>
 *   <li><b>One list_changed per change.</b> Registering N tools sends N {@code tools/list_changed}
 *   (the SDK sends one per add and remove); inside {@link #batch} they are held and one is sent at the end.</li>
 * </ul>
 */
public final class AgentRequests implements StdioInterceptor {
    private static final Logger log = LoggerFactory.getLogger(AgentRequests.class);
    /** The {@code _meta} key that carries the agent's request id from here to the tool handler. */
    public static final String TAG = "dev.engram.proxy/request-id";
    static final String CANCELLED = "notifications/cancelled";
    private static final Set<String> LIST_CHANGED = Set.of(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED,
            McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED);

    private final Set<String> ownTools;
    // whether a tool name is registered in the server now, and how a held list_changed is sent
    private volatile java.util.function.Predicate<String> offered = name -> true;
    private volatile Consumer<String> notify = method -> { };
    // the agent's tools/call requests in flight (by id key): completed with the reason when it cancels one
    private final Map<String, CompletableFuture<String>> calls = new ConcurrentHashMap<>();
    private final Object batching = new Object();
    // guarded by batching: how many batches are open, and the list_changed methods held meanwhile
    private int open;
    private final Set<String> held = new java.util.HashSet<>();

    /** {@code ownTools}: the proxy's own tools (answered by their own handlers, never cancelled upstream). */
    public AgentRequests(Set<String> ownTools) {
        this.ownTools = Set.copyOf(ownTools);
    }

    /** The server whose registered tools decide what is unknown; until it is set, every call passes. */
    public void serving(McpSyncServer server) {
        serving(name -> server.listTools().stream().anyMatch(t -> t.name().equals(name)), method -> {
            if (McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(method)) server.notifyToolsListChanged();
            if (McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED.equals(method)) server.notifyResourcesListChanged();
            if (McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED.equals(method)) server.notifyPromptsListChanged();
        });
    }

    /** {@code offered} tells a registered tool name; {@code notify} sends a held list_changed method. */
    void serving(java.util.function.Predicate<String> offered, Consumer<String> notify) {
        this.offered = offered;
        this.notify = notify;
    }

    @Override
    public JSONRPCMessage inbound(JSONRPCMessage message, Consumer<JSONRPCMessage> reply) {
        if (message instanceof JSONRPCNotification n && CANCELLED.equals(n.method())) {
            cancelled(n.params());
            return null; // the SDK's server has no handler for it: it only logs a warning
        }
        if (!(message instanceof JSONRPCRequest r) || !McpSchema.METHOD_TOOLS_CALL.equals(r.method())
                || !(r.params() instanceof Map<?, ?> params) || !(params.get("name") instanceof String name)) {
            return message;
        }
        if (ownTools.contains(name)) return message;
        if (!offered.test(name)) {
            reply.accept(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, r.id(), gone(name), null));
            return null;
        }
        String key = key(r.id());
        calls.put(key, new CompletableFuture<>());
        Map<String, Object> tagged = new LinkedHashMap<>();
        params.forEach((k, v) -> tagged.put(String.valueOf(k), v));
        Map<String, Object> meta = new LinkedHashMap<>();
        if (params.get("_meta") instanceof Map<?, ?> m) m.forEach((k, v) -> meta.put(String.valueOf(k), v));
        meta.put(TAG, key);
        tagged.put("_meta", meta);
        return new JSONRPCRequest(r.jsonrpc(), r.method(), r.id(), tagged);
    }

    /** The error result for a call to a tool the proxy does not offer now. */
    static CallToolResult gone(String name) {
        return CallToolResult.builder().addTextContent("no tool named '" + name + "' is offered now: its upstream removed"
                + " it, was removed from proxy.json, or is not connected (yet), or the name is wrong; list the tools again"
                + " (tools/list) and call one that is listed").isError(true).build();
    }

    private void cancelled(Object params) {
        if (!(params instanceof Map<?, ?> p) || p.get("requestId") == null) return;
        CompletableFuture<String> call = calls.get(key(p.get("requestId")));
        if (call == null) return; // answered already, or not a proxied tool call: nothing to stop
        Object reason = p.get("reason");
        log.info("the agent cancelled request {}{}", p.get("requestId"), reason == null ? "" : ": " + reason);
        call.complete(reason == null ? "" : String.valueOf(reason));
    }

    /**
     * The agent's request id that {@link #inbound} put in {@code meta}, or null (a call that did not pass
     * through here, as in tests).
     */
    public static String tag(Map<String, Object> meta) {
        return meta == null || !(meta.get(TAG) instanceof String t) ? null : t;
    }

    /** {@code meta} without the proxy's tag: what the upstream gets (null when nothing else is left). */
    public static Map<String, Object> untagged(Map<String, Object> meta) {
        if (meta == null || !meta.containsKey(TAG)) return meta;
        Map<String, Object> rest = new LinkedHashMap<>(meta);
        rest.remove(TAG);
        return rest.isEmpty() ? null : rest;
    }

    /** Completes when the agent cancels the call tagged {@code tag}; null for a call not tagged. */
    public CompletableFuture<String> cancellation(String tag) {
        return tag == null ? null : calls.get(tag);
    }

    /** The call tagged {@code tag} has been answered: a cancel for its id comes too late to matter. */
    public void finished(String tag) {
        if (tag != null) calls.remove(tag);
    }

    /**
     * Runs {@code changes} (adds and removes of tools, resources, templates and prompts) with their
     * {@code …/list_changed} notifications folded into one of each kind.
     */
    public void batch(Runnable changes) {
        synchronized (batching) {
            open++;
        }
        Set<String> send = Set.of();
        try {
            changes.run();
        } finally {
            synchronized (batching) {
                open--;
                if (open == 0 && !held.isEmpty()) {
                    send = Set.copyOf(held);
                    held.clear();
                }
            }
        }
        for (String method : send) notify.accept(method);
    }

    @Override
    public boolean sends(String method) {
        if (!LIST_CHANGED.contains(method)) return true;
        synchronized (batching) {
            if (open == 0) return true;
            held.add(method);
            return false;
        }
    }

    /** Ids are strings or numbers; 7 and "7" are different requests. */
    private static String key(Object id) {
        return id instanceof Number n ? "n:" + n.longValue() : "s:" + id;
    }

    /** The proxy's own tool names, for {@link #AgentRequests(Set)}. */
    static Set<String> names(java.util.List<dev.engram.mcp.tool.ToolHandler> tools) {
        return tools.stream().map(h -> h.definition().name()).collect(java.util.stream.Collectors.toSet());
    }
}
