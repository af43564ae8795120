package dev.engram.cli;

import dev.engram.memory.MemoryRules;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything a command needs to know before it runs, built once by {@link ConfigLoader} from
 * defaults, environment and flags (in that order of precedence) and never changed after (R9).
 * {@code store} is the store directory and the reason it was chosen. {@code zone} is null when none was given: tools then use the default zone, stats and export all zones.
 * {@code projectRoot} is the git root around the working directory (else the working directory): its
 * dependency manifests feed tag inference.
 */
public record EngramConfig(StoreLocation store, String zone, boolean json, boolean debug, Path projectRoot) {
    public EngramConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(projectRoot, "projectRoot");
        zone = zone == null ? null : MemoryRules.zone("--zone", zone);
    }

    /** The store directory; {@link #store()} also says why this one. */
    public Path storeDir() {
        return store.dir();
    }

    /** The zone MCP tools use when a call names none. */
    public String defaultZone() {
        return zone == null ? MemoryRules.DEFAULT_ZONE : zone;
    }
}
