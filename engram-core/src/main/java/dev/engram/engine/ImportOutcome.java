package dev.engram.engine;

import java.util.Locale;

/** What an import did, or would do, with one record of the file. */
public enum ImportOutcome {
    /** No memory with this id: inserted as in the file. */
    CREATED,
    /** The file's state is newer: it replaces the stored one, which becomes a version. */
    UPDATED,
    /** {@link ImportPolicy#REPLACE}: the file's state replaces a newer stored one, which becomes a version. */
    REPLACED,
    /** The stored state is newer (or as new, with other content): kept; the file's content becomes a version. */
    KEPT_NEWER,
    /** The stored memory already is the file's state; only versions and edges it lacks are added. */
    UNCHANGED,
    /** Cannot be imported (its key belongs to another memory, or its id appears twice); the import refuses. */
    CONFLICT;

    /** Lower case with spaces, as summaries print it: "kept newer". */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
