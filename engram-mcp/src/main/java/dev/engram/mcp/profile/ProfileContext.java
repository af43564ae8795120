package dev.engram.mcp.profile;

import dev.engram.engine.Engine;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.render.Renderers;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What every tool of a profile shares: the engine, the renderers and the zone used when a call names
 * none. The engine comes from a supplier so a server can answer {@code initialize} and
 * {@code tools/list} while the store is still opening; the first tool call waits for it.
 */
public record ProfileContext(Supplier<Engine> engines, Renderers renderers, String defaultZone) {
    public ProfileContext {
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(renderers, "renderers");
        Objects.requireNonNull(defaultZone, "defaultZone");
    }

    public static ProfileContext of(Engine engine, Renderers renderers, String defaultZone) {
        Objects.requireNonNull(engine, "engine");
        return new ProfileContext(() -> engine, renderers, defaultZone);
    }

    public Engine engine() {
        return engines.get();
    }

    /** The call's {@code zone} argument, else the server's default zone. */
    public String zone(ToolArgs args) {
        String z = args.textOr("zone");
        return z == null || z.isBlank() ? defaultZone : z.strip();
    }
}
