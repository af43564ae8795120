package dev.engram.store.sqlite;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Clock;

class SqliteMemoryStoreTest extends MemoryStoreContract {
    @Override
    protected MemoryStore open(Path dir, Clock clock) {
        return SqliteMemoryStore.open(dir);
    }
}
