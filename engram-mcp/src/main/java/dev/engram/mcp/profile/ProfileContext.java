package dev.engram.mcp.profile;

import dev.engram.engine.Engine;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.render.Renderers;
import java.util.Objects;

/** What every tool of a profile shares: the engine, the renderers and the zone used when a call names none. */
public record ProfileContext(Engine engine, Renderers renderers, String defaultZone) {
    public ProfileContext {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(renderers, "renderers");
        Objects.requireNonNull(defaultZone, "defaultZone");
    }

    /** The call's {@code zone} argument, else the server's default zone. */
    public String zone(ToolArgs args) {
        String z = args.textOr("zone");
        return z == null || z.isBlank() ? defaultZone : z.strip();
    }
}
