package dev.engram.proxy.pipeline;

import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import java.util.Map;
import java.util.Objects;

/**
 * One proxied tool call as the pipeline sees it: which server and tool, the arguments (as sent
 * upstream), the rule that sizes the result's budget, and the agent's {@code _context_query} if it
 * gave one (null otherwise): what it is looking for, in its words.
 */
public record ProxiedCall(UpstreamConfig upstream, String tool, String exposedName, Map<String, Object> arguments,
                          ResultBudget resultBudget, String contextQuery) {
    public ProxiedCall {
        arguments = arguments == null ? Map.of() : arguments;
        Objects.requireNonNull(resultBudget, "resultBudget");
    }

    public ProxiedCall(UpstreamConfig upstream, String tool, String exposedName, Map<String, Object> arguments,
                       ResultBudget resultBudget) {
        this(upstream, tool, exposedName, arguments, resultBudget, null);
    }

    public String server() {
        return upstream.name();
    }

    /** The most characters the agent gets for a result of {@code rawChars}; a result within it passes through. */
    public int budget(int rawChars) {
        return resultBudget.forResult(rawChars, upstream.maxResultCharsFor(tool));
    }

    public CompressionMode compression() {
        return upstream.compressionFor(tool);
    }
}
