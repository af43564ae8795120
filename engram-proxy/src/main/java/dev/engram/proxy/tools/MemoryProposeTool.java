package dev.engram.proxy.tools;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.stats.ProposalQueue;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;

/** Proposes a memory for review; listed only when {@code ENGRAM_PROXY_FORMATION__ENABLED=true}. */
public final class MemoryProposeTool implements ToolHandler {
    public static final String NAME = ProxyToolNames.MEMORY_PROPOSE;
    private static final Tool DEFINITION = Tool.builder(NAME, JsonSchema.input()
                    .string("content", "The memory, self-contained, at most 2000 characters", "Deploys freeze on Fridays after 14:00.")
                    .string("source_ref", "Where it came from (tool call, file, URL)", "fs__read_text_file docs/deploy.md")
                    .string("idempotency_key", "Same key, same proposal: retries do not duplicate it", "deploy-freeze-1")
                    .required("content").build())
            .description("Proposes a memory for a person to review; nothing is stored until they accept it"
                    + " (engram proxy accept). Use for durable facts learned from tool results.")
            .annotations(ToolHints.writes(true)).build();

    private final ProposalQueue queue;

    public MemoryProposeTool(ProposalQueue queue) {
        this.queue = queue;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        String content = args.text("content").strip();
        if (content.length() > ProposalQueue.MAX_CONTENT_CHARS) {
            throw new InvalidArgumentException("content", "is " + content.length() + " characters, over "
                    + ProposalQueue.MAX_CONTENT_CHARS + "; propose one fact at a time");
        }
        String id = queue.propose(content, args.textOr("source_ref"), args.textOr("idempotency_key"));
        return new ToolReply("Proposed " + id + " for review; it is not stored until accepted.",
                Map.of("ok", true, "proposal_id", id, "status", "pending_review"));
    }
}
