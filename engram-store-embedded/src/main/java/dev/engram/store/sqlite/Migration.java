package dev.engram.store.sqlite;

import java.util.List;

/** One step of the schema history: running {@code statements} on schema {@code version - 1} gives {@code version}. */
record Migration(int version, String description, List<String> statements) {
    Migration {
        if (version < 1) throw new IllegalArgumentException("schema versions start at 1, got " + version);
        statements = List.copyOf(statements);
    }
}
