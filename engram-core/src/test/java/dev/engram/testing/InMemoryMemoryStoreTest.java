package dev.engram.testing;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

class InMemoryMemoryStoreTest extends MemoryStoreContract {
    /** The fake has no files: a directory maps to the first handle opened on it, and reopening shares its state. */
    private final Map<Path, InMemoryMemoryStore> byDir = new HashMap<>();

    @Override
    protected MemoryStore open(Path dir, Clock clock) {
        InMemoryMemoryStore first = byDir.get(dir);
        if (first == null) {
            first = new InMemoryMemoryStore();
            byDir.put(dir, first);
            return first;
        }
        return first.reopened();
    }
}
