package dev.engram.store.postgres;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole store contract (with its tombstone and vector parts) on a real PostgreSQL. The contract
 * names a store by a directory; here each directory is a schema of its own, so a test's reopen and
 * second handle meet the same data and no two tests share any.
 */
class PostgresMemoryStoreTest extends MemoryStoreContract {
    private final Map<Path, PostgresLocation> schemas = new HashMap<>();

    @Override
    protected MemoryStore open(Path dir, Clock clock) {
        return PostgresMemoryStore.open(schemas.computeIfAbsent(dir, d -> TestDatabase.freshSchema()));
    }

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }
}
