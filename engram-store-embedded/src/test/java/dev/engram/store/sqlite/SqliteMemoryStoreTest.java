package dev.engram.store.sqlite;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Clock;

class SqliteMemoryStoreTest extends MemoryStoreContract {
    @org.junit.jupiter.api.Test
    void idListsShareAFewStatementSizes() {
        int[][] cases = {{1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {100, 128}, {128, 128}, {129, 256}, {300, 500}, {500, 500}};
        for (int[] c : cases) {
            org.junit.jupiter.api.Assertions.assertEquals(c[1], SqliteMemoryStore.bucket(c[0]), "bucket of " + c[0]);
        }
    }

    @Override
    protected MemoryStore open(Path dir, Clock clock) {
        return SqliteMemoryStore.open(dir);
    }
}
