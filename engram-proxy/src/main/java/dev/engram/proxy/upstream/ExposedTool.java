package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.Tool;

/** An upstream tool as the agent sees it ({@code exposed}) and as the upstream knows it. */
public record ExposedTool(String name, String server, Tool upstream, Tool exposed) {
    /** Only tools that say so are cached: a tool without the hint may write (memtomem-stm #655). */
    public boolean readOnly() {
        return upstream.annotations() != null && Boolean.TRUE.equals(upstream.annotations().readOnlyHint());
    }
}
