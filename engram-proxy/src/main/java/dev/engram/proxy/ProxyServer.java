package dev.engram.proxy;

import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.proxy.upstream.ExposedTool;
import dev.engram.proxy.upstream.ProgressRelay;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The proxy's MCP server: every exposed upstream tool plus the proxy's own, registered before build. */
public final class ProxyServer {
    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);
    public static final String NAME = "engram-proxy";
    static final String INSTRUCTIONS = "Tools named prefix__tool are other MCP servers' tools behind the Engram proxy."
            + " Large results come back compressed with a footer naming a key: continue with stm_proxy_read_more"
            + " (progressive chunks, exact original text) or pick sections with stm_proxy_select_chunks. Memories"
            + " relevant to a result may follow it in <surfaced-memories>; rate them with stm_surfacing_feedback.";

    private ProxyServer() {
    }

    public static McpSyncServer build(McpServer.SingleSessionSyncSpecification spec, ProxyRuntime runtime, String version) {
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (ExposedTool t : runtime.exposure().tools()) tools.add(proxied(runtime.gateway(), runtime.progress(), t));
        runtime.ownTools().forEach(h -> tools.add(ToolAdapter.spec(h)));
        return spec.serverInfo(NAME, version).instructions(INSTRUCTIONS)
                .capabilities(ServerCapabilities.builder().tools(false).build())
                // the upstream validates its own arguments, with its own dialect; ours validate in ToolArgs
                .validateToolInputs(false)
                .requestTimeout(Duration.ofSeconds(120))
                .tools(tools).build();
    }

    /** The R5 adapter for a proxied tool: no exception crosses it. */
    static SyncToolSpecification proxied(ProxyGateway gateway, ProgressRelay progress, ExposedTool tool) {
        return SyncToolSpecification.builder().tool(tool.exposed()).callHandler((exchange, request) -> {
            Object token = request.meta() == null ? null : request.meta().get("progressToken");
            try (ProgressRelay.Registration r = token == null ? () -> { } : progress.register(token, exchange::progressNotification)) {
                return gateway.call(tool, request.arguments(), request.meta());
            } catch (RuntimeException e) {
                String ref = ToolAdapter.newRef();
                log.error("proxied tool {} failed, ref={}", tool.name(), ref, e);
                return CallToolResult.builder().addTextContent(tool.name() + " failed inside the proxy (ref " + ref + ")")
                        .isError(true).build();
            }
        }).build();
    }
}
