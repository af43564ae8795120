package dev.engram.store.lucene;

import dev.engram.spi.SearchIndexContract;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Clock;

class LuceneSearchIndexTest extends SearchIndexContract {
    @Override
    protected Opened open(Path dir, Clock clock) {
        SqliteMemoryStore store = SqliteMemoryStore.open(dir);
        return new Opened(store, LuceneSearchIndex.open(store, dir.resolve("index")));
    }

    @Override
    protected boolean supportsKorean() {
        return true;
    }
}
