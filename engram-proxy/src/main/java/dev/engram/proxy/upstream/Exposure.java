package dev.engram.proxy.upstream;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of the exposure gate: the tools the agent sees, and per server how many were
 * discovered, how many exposed and why the others were hidden.
 */
public record Exposure(List<ExposedTool> tools, Map<String, ServerExposure> servers) {
    public Exposure {
        tools = List.copyOf(tools);
        servers = Map.copyOf(servers);
    }

    public Optional<ExposedTool> find(String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** Counts for one server; {@code hidden} maps an upstream tool name to the reason it is hidden. */
    public record ServerExposure(String server, boolean connected, int discovered, int exposed,
                                 Map<String, String> hidden) {
        public ServerExposure {
            hidden = Map.copyOf(hidden);
        }
    }
}
