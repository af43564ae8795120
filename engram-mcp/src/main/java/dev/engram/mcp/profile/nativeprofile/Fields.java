package dev.engram.mcp.profile.nativeprofile;

import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import java.util.Arrays;
import java.util.List;

/** Wording shared by several tool schemas, so the same argument reads the same in every tool. */
final class Fields {
    static final String ZONE = "Namespace (project, team, domain); default: the server's zone";
    static final String KEY = "Memory id (m_...) or key";
    static final List<String> TYPES = Arrays.stream(MemoryType.values()).map(MemoryType::wireName).toList();
    static final List<String> EDGE_TYPES = Arrays.stream(EdgeType.values()).map(EdgeType::wireName).toList();
    static final List<String> IMPORTANCE = List.of("critical", "high", "medium", "low");

    private Fields() {
    }
}
