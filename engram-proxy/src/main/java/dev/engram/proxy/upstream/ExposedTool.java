package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.Tool;

/** An upstream tool as the agent sees it ({@code exposed}) and as the upstream knows it. */
public record ExposedTool(String name, String server, Tool upstream, Tool exposed) {
    /** The proxy's own optional argument (memtomem-stm's): a surfacing query, stripped before the upstream call. */
    public static final String CONTEXT_QUERY = "_context_query";

    /** Whether the upstream's own schema declares {@code argument} (then it is the upstream's, and passed on). */
    public boolean upstreamDeclares(String argument) {
        return upstream.inputSchema() != null && upstream.inputSchema().get("properties") instanceof java.util.Map<?, ?> p
                && p.containsKey(argument);
    }

    /** Only tools that say so are cached: a tool without the hint may write (memtomem-stm #655). */
    public boolean readOnly() {
        return upstream.annotations() != null && Boolean.TRUE.equals(upstream.annotations().readOnlyHint());
    }
}
