package dev.engram.mcp.profile.toon;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One toon tool: its definition and a body returning the text toon would print. toon has no
 * structured output, so the structured content carries the same text under {@code text}.
 */
record ToonTool(Tool definition, Function<ToolArgs, String> body) implements ToolHandler {
    @Override
    public ToolReply call(ToolArgs args) {
        String text = body.apply(args);
        return new ToolReply(text, Map.of("text", text));
    }

    /** toon's hints, as its registerTool calls set them (the upstream integration suite checks them). */
    static ToolAnnotations hints(boolean readOnly, boolean destructive, boolean idempotent) {
        return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive).idempotentHint(idempotent)
                .openWorldHint(false).build();
    }

    static Tool define(String name, String description, JsonSchema schema, ToolAnnotations hints) {
        return Tool.builder(name, schema.build()).description(description).annotations(hints).build();
    }

    static Map<String, Object> number(String description, double example) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "number");
        p.put("description", description);
        p.put("examples", java.util.List.of(example));
        return p;
    }

    /**
     * A tool whose behaviour is a later item of issue 16: it exists with toon's schema so agents and
     * clients see the full surface, and every call says plainly what is missing, never a fake success.
     */
    static ToonTool notBuilt(Tool definition, String what) {
        return new ToonTool(definition, args -> {
            throw new EngramUserException(definition.name() + " is not built yet in Engram's toon profile: " + what);
        });
    }
}
