package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One live connection to an upstream server. Implementations throw {@link UpstreamException}
 * when the connection fails during a call; after that the session is dead and is replaced.
 */
public interface UpstreamSession extends AutoCloseable {
    List<Tool> listTools();

    CallToolResult call(CallToolRequest request, Duration timeout);

    /**
     * As {@link #call(CallToolRequest, Duration)}; when {@code cancelled} (may be null) completes first,
     * the request is cancelled upstream and the call fails with {@link UpstreamException.Kind#CANCELLED}.
     */
    default CallToolResult call(CallToolRequest request, Duration timeout, java.util.concurrent.CompletableFuture<String> cancelled) {
        return call(request, timeout);
    }

    /** Whether the upstream advertised the resources capability at initialize. */
    default boolean servesResources() {
        return false;
    }

    /** Whether the upstream advertised the prompts capability at initialize. */
    default boolean servesPrompts() {
        return false;
    }

    default List<Resource> listResources() {
        return List.of();
    }

    default List<ResourceTemplate> listResourceTemplates() {
        return List.of();
    }

    default List<Prompt> listPrompts() {
        return List.of();
    }

    /** Reads {@code uri} (the upstream's own URI); errors as for {@link #call}. */
    default ReadResourceResult readResource(String uri, Duration timeout) {
        throw UpstreamException.errorAnswer("this upstream serves no resources", null);
    }

    /** Gets the upstream's prompt {@code name}; errors as for {@link #call}. */
    default GetPromptResult getPrompt(String name, Map<String, Object> arguments, Duration timeout) {
        throw UpstreamException.errorAnswer("this upstream serves no prompts", null);
    }

    /**
     * {@code listener} hears each {@code notifications/…/list_changed} the upstream sends, on a
     * thread of the session's client (it must not block). A change announced before this call is
     * handed over at once.
     */
    default void onListChanged(Consumer<ListKind> listener) {
    }

    /** Whether the upstream advertised {@code resources.subscribe} at initialize. */
    default boolean subscribesResources() {
        return false;
    }

    /** {@code resources/subscribe} for the upstream's own {@code uri}; errors as for {@link #call}. */
    default void subscribe(String uri, Duration timeout) {
        throw UpstreamException.errorAnswer("this upstream offers no resource subscriptions", null);
    }

    /** {@code resources/unsubscribe} for the upstream's own {@code uri}; errors as for {@link #call}. */
    default void unsubscribe(String uri, Duration timeout) {
        throw UpstreamException.errorAnswer("this upstream offers no resource subscriptions", null);
    }

    /**
     * {@code listener} hears the upstream URI of each {@code notifications/resources/updated}, on a
     * thread of the session's client (it must not block).
     */
    default void onResourceUpdated(Consumer<String> listener) {
    }

    /** False once the upstream process has exited (always true for HTTP: failures show on the next call). */
    boolean alive();

    @Override
    void close();

    /** Opens sessions; the production one starts processes or HTTP clients, tests use fakes. */
    @FunctionalInterface
    interface Opener {
        UpstreamSession open(dev.engram.proxy.config.UpstreamConfig config);
    }
}
