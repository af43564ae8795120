package dev.engram.store.sqlite;

import java.util.Optional;

/**
 * What the file at a store's database path is, as {@link DatabaseInspector} finds it without writing
 * to it. Engram stamps its databases with {@link #APPLICATION_ID} in SQLite's
 * {@code PRAGMA application_id} (header offset 68), so another program's SQLite file of the same name
 * ({@code engram.db} is also Gentleman-Programming/engram's) is told apart before anything changes it.
 */
public sealed interface DatabaseIdentity {
    /**
     * ASCII {@code EGRM}, big-endian, so a hex dump of the header shows whose file it is: Engram's SQLite
     * application id. Fixed forever; changing it would make every existing store look foreign.
     */
    int APPLICATION_ID = 0x4547524D;

    /** No file, or one with neither tables nor an application id: a new store may be created in it. */
    record Absent() implements DatabaseIdentity {
    }

    /**
     * An Engram store. {@code stamped} is false for stores written before Engram set its application id
     * (recognised by holding only Engram's tables); opening stamps them.
     */
    record Engram(int schemaVersion, boolean stamped) implements DatabaseIdentity {
    }

    /**
     * Not Engram's: another application id, tables Engram never creates, or not SQLite at all.
     * {@code reason} completes "it ..." ; {@code probableOwner} names the program when it can be told.
     */
    record Foreign(String reason, Optional<String> probableOwner) implements DatabaseIdentity {
        /** One sentence for a person: why the file is not Engram's and, when known, whose it probably is. */
        public String explanation() {
            return "it " + reason + probableOwner.map(owner -> "; it looks like the database of " + owner).orElse("");
        }
    }
}
