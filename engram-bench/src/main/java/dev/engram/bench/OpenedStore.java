package dev.engram.bench;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.store.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;

/** A record and its index, opened together and closed together. */
record OpenedStore(MemoryStore store, SearchIndex index, AutoCloseable owner) implements AutoCloseable {

    /** How a benchmark gets a store; the CLI uses {@link #embedded}, the smoke test an in-memory fake. */
    @FunctionalInterface
    interface Opener {
        OpenedStore open(Path dir, Clock clock);
    }

    static OpenedStore embedded(Path dir, Clock clock) {
        EmbeddedStore embedded = EmbeddedStore.open(dir, clock);
        return new OpenedStore(embedded.store(), embedded.index(), embedded);
    }

    @Override
    public void close() throws Exception {
        owner.close();
    }
}
