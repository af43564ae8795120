package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.SearchIndexContract;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    private int extraStores;

    /** A fresh store and index holding only {@code memories}, searched once. */
    private List<String> searchAfterInserting(String query, Memory... memories) {
        try (Opened o = open(dir.resolve("extra-" + ++extraStores), clock)) {
            o.store().write(tx -> {
                for (Memory m : memories) tx.insert(m);
                return null;
            });
            o.index().catchUp();
            return o.index().search(IndexQuery.text(query, "work", 10)).stream().map(IndexHit::id).toList();
        }
    }

    private Memory memory(long n, String content) {
        return MemoryFixtures.minimal(clock, n, "work", content).build();
    }

    @Test
    void japaneseAndChineseMatchThroughBigrams() {
        Memory ja = memory(1, "東京のサーバーで認証に失敗しました。");
        Memory zh = memory(2, "用户偏好使用深色主题。");
        assertEquals(List.of(ja.id()), searchAfterInserting("認証", ja, zh));
        assertEquals(List.of(zh.id()), searchAfterInserting("深色主题", ja, zh));
    }

    @Test
    void aKeyMatchOutranksTheSameWordInContent() {
        Memory inContent = memory(1, "the redis cluster restarts nightly after backups");
        Memory inKey = MemoryFixtures.minimal(clock, 2, "work", "the cache cluster restarts nightly after backups")
                .key("redis-restarts").build();
        assertEquals(List.of(inKey.id(), inContent.id()), searchAfterInserting("redis", inContent, inKey));
    }

    @Test
    void aContentMatchOutranksTheSameWordInTheFilePath() {
        Memory inFile = MemoryFixtures.minimal(clock, 1, "work", "restarts nightly after backups")
                .file("ops/scheduler/cron.yaml").build();
        Memory inContent = memory(2, "scheduler restarts nightly after backups");
        assertEquals(List.of(inContent.id(), inFile.id()), searchAfterInserting("scheduler", inFile, inContent));
    }
}
