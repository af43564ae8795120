package dev.engram.proxy.pipeline;

import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.UpstreamConfig;
import java.util.Map;
import java.util.Objects;

/**
 * One proxied tool call as the pipeline sees it: which server and tool, the arguments, and the rule
 * that sizes the result's budget.
 */
public record ProxiedCall(UpstreamConfig upstream, String tool, String exposedName, Map<String, Object> arguments,
                          ResultBudget resultBudget) {
    public ProxiedCall {
        arguments = arguments == null ? Map.of() : arguments;
        Objects.requireNonNull(resultBudget, "resultBudget");
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
