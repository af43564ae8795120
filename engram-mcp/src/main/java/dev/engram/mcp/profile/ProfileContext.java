package dev.engram.mcp.profile;

import dev.engram.engine.Engine;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.MemoryRules;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What every tool of a profile shares: the engine, the zone used when a call names
 * none, and the name of the argument that names one ({@code zone} natively; a profile whose agents
 * already send another, like brain-tools' {@code memory_zone}, declares it with
 * {@link #withZoneArgument}). The engine comes from a supplier so a server can answer
 * {@code initialize} and {@code tools/list} while the store is still opening; the first tool call
 * waits for it. Presentation is not shared: each profile's factory builds its own renderers and the
 * {@link dev.engram.engine.ResultCost} that prices its output for token budgets. {@code settings} are
 * profile options the command line read and checked (by {@code engram-cli}'s ConfigLoader, the only
 * reader of the environment), by dotted name such as {@code server-memory.search}; a profile reads
 * only its own.
 */
public record ProfileContext(Supplier<Engine> engines, String defaultZone, String zoneArgument,
                             Map<String, String> settings) {
    public static final String ZONE = "zone";

    public ProfileContext {
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(defaultZone, "defaultZone");
        Objects.requireNonNull(zoneArgument, "zoneArgument");
        settings = settings == null ? Map.of() : Map.copyOf(settings);
    }

    public ProfileContext(Supplier<Engine> engines, String defaultZone, String zoneArgument) {
        this(engines, defaultZone, zoneArgument, Map.of());
    }

    public ProfileContext(Supplier<Engine> engines, String defaultZone) {
        this(engines, defaultZone, ZONE);
    }

    public static ProfileContext of(Engine engine, String defaultZone) {
        Objects.requireNonNull(engine, "engine");
        return new ProfileContext(() -> engine, defaultZone);
    }

    /** The same context for a profile whose tools name the zone argument {@code name}. */
    public ProfileContext withZoneArgument(String name) {
        return new ProfileContext(engines, defaultZone, name, settings);
    }

    /** The same context with these profile settings. */
    public ProfileContext withSettings(Map<String, String> values) {
        return new ProfileContext(engines, defaultZone, zoneArgument, values);
    }

    /** A profile setting, or null when none was given. */
    public String setting(String name) {
        return settings.get(name);
    }

    public Engine engine() {
        return engines.get();
    }

    /**
     * The call's zone argument (named {@link #zoneArgument()}), else the server's default zone. A name the store could
     * not hold is refused here, under the argument's own name, before any tool looks it up.
     */
    public String zone(ToolArgs args) {
        String z = args.textOr(zoneArgument);
        return z == null || z.isBlank() ? defaultZone : MemoryRules.zone(zoneArgument, z.strip());
    }
}
