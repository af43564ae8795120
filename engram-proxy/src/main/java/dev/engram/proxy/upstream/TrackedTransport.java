package dev.engram.proxy.upstream;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An upstream transport that remembers the JSON-RPC id of each request in flight, by the request's
 * params object. {@code notifications/cancelled} must name the id of the request it cancels, and the
 * SDK's client chooses ids itself and tells no one; but it sends the very params object the proxy
 * passed in (a {@code CallToolRequest}), so that object finds its id. Forgotten when the answer comes
 * or the caller {@link #forget}s it.
 */
final class TrackedTransport implements McpClientTransport {
    static final String CANCELLED = "notifications/cancelled";
    private final McpClientTransport delegate;
    // guarded by itself: params (by identity) -> request id, and id -> params to forget on the answer
    private final Map<Object, Object> ids = new IdentityHashMap<>();
    private final Map<Object, Object> byId = new java.util.HashMap<>();

    TrackedTransport(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    /**
     * Tells the upstream that the request sent with {@code params} is cancelled. Returns false when no
     * such request is in flight (never sent, or answered already).
     */
    boolean cancel(Object params, String reason) {
        Object id;
        synchronized (ids) {
            id = ids.get(params);
        }
        if (id == null) return false;
        forget(params);
        delegate.sendMessage(new McpSchema.JSONRPCNotification(CANCELLED,
                Map.of("requestId", id, "reason", reason))).subscribe(v -> { }, e -> { });
        return true;
    }

    /** The request sent with {@code params} needs no cancelling any more. */
    void forget(Object params) {
        synchronized (ids) {
            Object id = ids.remove(params);
            if (id != null) byId.remove(id);
        }
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return delegate.connect(incoming -> handler.apply(incoming.doOnNext(m -> {
            if (m instanceof McpSchema.JSONRPCResponse r && r.id() != null) {
                synchronized (ids) {
                    Object params = byId.remove(r.id());
                    if (params != null) ids.remove(params);
                }
            }
        })));
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest r && r.id() != null && r.params() != null
                && McpSchema.METHOD_TOOLS_CALL.equals(r.method())) {
            synchronized (ids) {
                ids.put(r.params(), r.id());
                byId.put(r.id(), r.params());
            }
        }
        return delegate.sendMessage(message);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
