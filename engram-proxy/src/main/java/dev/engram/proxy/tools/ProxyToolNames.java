package dev.engram.proxy.tools;

import java.util.Set;

/** The proxy's own tool names; an upstream tool exposed under one of these is hidden. */
public final class ProxyToolNames {
    public static final String SELECT_CHUNKS = "stm_proxy_select_chunks";
    public static final String READ_MORE = "stm_proxy_read_more";
    public static final String DESCRIBE_TOOL = "stm_proxy_describe_tool";
    public static final String SURFACING_FEEDBACK = "stm_surfacing_feedback";
    public static final String COMPRESSION_FEEDBACK = "stm_compression_feedback";
    public static final String ADMIN = "stm_admin";
    public static final String MEMORY_PROPOSE = "stm_memory_propose";
    public static final Set<String> ALL = Set.of(SELECT_CHUNKS, READ_MORE, DESCRIBE_TOOL, SURFACING_FEEDBACK,
            COMPRESSION_FEEDBACK, ADMIN, MEMORY_PROPOSE);

    private ProxyToolNames() {
    }
}
