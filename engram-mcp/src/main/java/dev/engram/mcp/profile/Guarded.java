package dev.engram.mcp.profile;

import dev.engram.mcp.server.CallerRights;
import dev.engram.mcp.tool.ToolAdapter;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resources and prompts for any profile, guarded like {@link ToolAdapter} guards tools: no exception
 * crosses into the SDK; a failed read is logged with a reference and answered with a short note
 * carrying it, so the agent's session goes on.
 */
public final class Guarded {
    private static final Logger log = LoggerFactory.getLogger(Guarded.class);

    private Guarded() {
    }

    /** A text resource whose body is made on each read. */
    public static SyncResourceSpecification resource(Resource resource, Supplier<String> body) {
        return resource(resource, exchange -> body.get());
    }

    /** A text resource whose body depends on who reads it (the session, the client): made on each read. */
    public static SyncResourceSpecification resource(Resource resource,
                                                     Function<io.modelcontextprotocol.server.McpSyncServerExchange, String> body) {
        return new SyncResourceSpecification(resource, (exchange, request) -> CallerRights.bound(exchange, () -> {
            String text;
            // a note said instead of the body is plain text, whatever the resource's own type (JSON, HTML…)
            String mimeType = "text/plain";
            try {
                text = body.apply(exchange);
                mimeType = resource.mimeType();
            } catch (dev.engram.error.EngramUserException e) {
                text = e.getMessage(); // a refused right or a bad argument: the caller's to fix, said plainly
            } catch (RuntimeException e) {
                String ref = ToolAdapter.newRef();
                log.error("resource {} failed, ref={}", resource.uri(), ref, e);
                text = resource.uri() + " is unavailable right now (ref " + ref + ")";
            }
            return ReadResourceResult.builder(List.of(TextResourceContents.builder(request.uri(), text)
                    .mimeType(mimeType).build())).build();
        }));
    }

    /**
     * A prompt answered with one user message made from the request's arguments (empty when none were
     * sent); the prompt's title describes the result and names it in the failure note.
     */
    public static SyncPromptSpecification prompt(Prompt prompt, Function<Map<String, Object>, String> body) {
        return new SyncPromptSpecification(prompt, (exchange, request) -> CallerRights.bound(exchange, () -> {
            String text;
            try {
                text = body.apply(request.arguments() == null ? Map.of() : request.arguments());
            } catch (dev.engram.error.EngramUserException e) {
                text = e.getMessage();
            } catch (RuntimeException e) {
                String ref = ToolAdapter.newRef();
                log.error("prompt {} failed, ref={}", prompt.name(), ref, e);
                text = "The " + prompt.title() + " is unavailable right now (ref " + ref + ")";
            }
            return GetPromptResult.builder(List.of(PromptMessage.builder(Role.USER,
                    TextContent.builder(text).build()).build())).description(prompt.title()).build();
        }));
    }
}
