package dev.engram.testing;

import dev.engram.spi.SearchIndexContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

class InMemorySearchIndexTest extends SearchIndexContract {
    /** Reopening a directory shares the first store's state; the index starts empty and catches up, as after a restart. */
    private final Map<Path, InMemoryMemoryStore> byDir = new HashMap<>();

    @Override
    protected Opened open(Path dir, Clock clock) {
        InMemoryMemoryStore first = byDir.get(dir);
        InMemoryMemoryStore store = first == null ? new InMemoryMemoryStore() : first.reopened();
        byDir.putIfAbsent(dir, store);
        return new Opened(store, new InMemorySearchIndex(store));
    }
}
