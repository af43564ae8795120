package dev.engram.mcp.profile;

import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import java.util.List;

/**
 * A face of the engine: the tool names, resources, prompts and instructions one kind of agent expects
 * (GUIDE §1). Everything is built before the server starts, because the stdio transport serves as
 * soon as the server is built (SDK gotcha 7).
 */
public record ToolProfile(String name, String instructions, List<ToolHandler> tools,
                          List<SyncResourceSpecification> resources, List<SyncPromptSpecification> prompts) {
    public ToolProfile {
        tools = List.copyOf(tools);
        resources = List.copyOf(resources);
        prompts = List.copyOf(prompts);
    }

    /** The same profile with each tool replaced by what {@code change} makes of it. */
    public ToolProfile withTools(java.util.function.UnaryOperator<ToolHandler> change) {
        return new ToolProfile(name, instructions, tools.stream().map(change).toList(), resources, prompts);
    }
}
