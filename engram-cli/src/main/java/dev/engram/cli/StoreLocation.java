package dev.engram.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * The store directory a command uses and why that one: {@code engram doctor} prints both, so after the
 * default moved (issue 20) nobody has to guess which directory holds their memories.
 */
public record StoreLocation(Path dir, Source source, String why, String url) {
    /** The file whose identity decides whether the directory is an Engram store. */
    static final String DATABASE = "engram.db";

    public enum Source {
        /** {@code --store DIR}. */
        FLAG,
        /** {@code --project}: the store at the git root. */
        PROJECT,
        /** {@code ENGRAM_HOME}. */
        ENVIRONMENT,
        /** A store an earlier Engram made where the default used to be, still used so no memory is lost. */
        LEGACY,
        /** The platform's per-user data directory. */
        DEFAULT;

        /** The name scripts read in {@code doctor --json}. */
        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An embedded store in {@code dir}. */
    public StoreLocation(Path dir, Source source, String why) {
        this(dir, source, why, null);
    }

    /**
     * {@code url} is a PostgreSQL store's {@code postgresql://} URL, or null for the embedded store; with
     * one, {@code dir} is where this process keeps its own search index of that store.
     */
    public StoreLocation {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(why, "why");
    }

    /** Whether the record is a PostgreSQL server rather than {@code engram.db} in {@link #dir}. */
    public boolean postgres() {
        return url != null;
    }

    public Path database() {
        return dir.resolve(DATABASE);
    }
}
