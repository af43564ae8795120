package dev.engram.mcp.http;

import dev.engram.mcp.profile.ToolProfile;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Other faces of the served profile, picked per request by a header (Memento's {@code X-Memento-Mode:
 * recall-only}): each variant gets its own MCP server, so a session sees only its variant's tools from
 * {@code tools/list} on. No header: the profile itself.
 */
public record ProfileVariants(String header, Map<String, ToolProfile> profiles) {
    public static final ProfileVariants NONE = new ProfileVariants(null, Map.of());

    public ProfileVariants {
        profiles = new LinkedHashMap<>(profiles);
        if (!profiles.isEmpty() && (header == null || header.isBlank())) {
            throw new IllegalArgumentException("variants need the header that picks them");
        }
    }

    @Override
    public Map<String, ToolProfile> profiles() {
        return java.util.Collections.unmodifiableMap(profiles);
    }
}
