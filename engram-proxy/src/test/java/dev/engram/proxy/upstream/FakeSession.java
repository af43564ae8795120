package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A scriptable upstream: fixed tools, answers computed from the request, and a switch to make it die. */
final class FakeSession implements UpstreamSession {
    private final List<Tool> tools;
    private final Function<CallToolRequest, CallToolResult> answer;
    // flipped by tests to simulate a crash
    volatile boolean alive = true;
    volatile boolean closed;
    // the next call kills the process while it runs
    volatile boolean crashDuringNextCall;

    FakeSession(List<Tool> tools, Function<CallToolRequest, CallToolResult> answer) {
        this.tools = tools;
        this.answer = answer;
    }

    static Tool tool(String name) {
        return Tool.builder(name, Map.of("type", "object")).description("does " + name).build();
    }

    @Override
    public List<Tool> listTools() {
        return tools;
    }

    @Override
    public CallToolResult call(CallToolRequest request, Duration timeout) {
        if (!alive || crashDuringNextCall) {
            alive = false;
            throw new UpstreamException("upstream 'fake' exited during the call (process 1)");
        }
        return answer.apply(request);
    }

    @Override
    public boolean alive() {
        return alive;
    }

    @Override
    public void close() {
        closed = true;
    }
}
