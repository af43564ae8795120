package dev.engram.proxy.pipeline;

import dev.engram.proxy.config.UpstreamConfig;
import java.util.Map;

/** One proxied tool call as the pipeline sees it: which server and tool, the arguments, the budget. */
public record ProxiedCall(UpstreamConfig upstream, String tool, String exposedName, Map<String, Object> arguments) {
    public ProxiedCall {
        arguments = arguments == null ? Map.of() : arguments;
    }

    public String server() {
        return upstream.name();
    }

    public int budget() {
        return upstream.maxResultCharsFor(tool);
    }

    public dev.engram.proxy.config.CompressionMode compression() {
        return upstream.compressionFor(tool);
    }
}
