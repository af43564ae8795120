package dev.engram.proxy.compress;

import dev.engram.mcp.tool.ToolArgs;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.tools.SelectChunksTool;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** The original back through the {@code stm_proxy_select_chunks} tool itself, as an agent would ask for it. */
final class Recovery {
    private Recovery() {
    }

    static String select(OriginalStore store, Path dir, String key, List<String> ids) {
        SelectChunksTool tool = new SelectChunksTool(store, new ProxyStats(dir, Clock.systemUTC()));
        return tool.call(ToolArgs.of(tool.definition(), Map.of("key", key, "sections", ids))).text();
    }
}
