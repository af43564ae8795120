package dev.engram.store.sqlite;

import dev.engram.error.EngramUserException;
import java.nio.file.Path;

/** The store's database file belongs to another program; nothing was written to it. */
public final class ForeignDatabaseException extends EngramUserException {
    private final transient Path file;
    private final transient DatabaseIdentity.Foreign identity;

    public ForeignDatabaseException(Path file, DatabaseIdentity.Foreign identity) {
        super(file + " is not an Engram database: " + identity.explanation()
                + ". Engram left it untouched; choose another store directory.");
        this.file = file;
        this.identity = identity;
    }

    public Path file() {
        return file;
    }

    public DatabaseIdentity.Foreign identity() {
        return identity;
    }
}
