package dev.engram.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine on the real SQLite record and Lucene index: the paths the in-memory fakes cannot cover. */
class EmbeddedEngineTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private EmbeddedStore embedded;
    private Engine engine;

    @BeforeEach
    void open() {
        embedded = EmbeddedStore.open(dir, clock);
        engine = new Engine(embedded.store(), embedded.index(), clock);
    }

    @AfterEach
    void close() {
        embedded.close();
    }

    private List<String> keys(String query) {
        return engine.recall(RecallQuery.of(query), COST).results().stream().map(r -> r.memory().key()).toList();
    }

    private void remember(String key, String content) {
        engine.remember(new RememberCommand(content, key, MemoryType.FACT, null, null, null, null, null, null, null,
                null, false, null, null));
    }

    @Test
    void koreanAndJapaneseQueriesFindTheirMemories() {
        remember("ko-password", "사용자는 레디스 인증 오류를 해결하기 위해 비밀번호를 변경했습니다.");
        remember("ja-auth", "東京のサーバーで認証に失敗しました。");
        remember("en", "The deploy script needs a password file");
        assertEquals(List.of("ko-password"), keys("비밀번호"));
        assertEquals("ja-auth", keys("認証").get(0));
        assertEquals(List.of("en"), keys("deploy script"));
    }

    @Test
    void writesAmendsAndForgetsAreReflectedInSearchAtOnce() {
        remember("pool", "Connection pool size is ten");
        assertEquals(List.of("pool"), keys("connection pool"));
        clock.advance(Duration.ofHours(1));
        engine.amend(new AmendCommand("pool", null, "Thread pool size is forty", null, null));
        assertTrue(keys("connection").isEmpty(), "old content no longer matches");
        assertEquals(List.of("pool"), keys("thread pool"));
        engine.forget(new ForgetCommand("pool", null, ForgetAction.SOFT));
        assertTrue(keys("thread pool").isEmpty());
        engine.forget(new ForgetCommand("pool", null, ForgetAction.RESTORE));
        assertEquals(List.of("pool"), keys("thread pool"));
        engine.forget(new ForgetCommand("pool", null, ForgetAction.HARD));
        assertTrue(keys("thread pool").isEmpty());
        assertTrue(embedded.check().consistent());
    }

    @Test
    void reopeningKeepsEverythingSearchable() {
        for (int i = 0; i < 50; i++) {
            remember("note-" + i, "Reopen check memory number " + i + " with token uniq" + i);
        }
        embedded.close();
        open();
        RecallResult r = engine.recall(RecallQuery.of("uniq37"), COST);
        assertEquals("note-37", r.results().get(0).memory().key());
        assertEquals(50, embedded.check().recordCount());
        assertTrue(embedded.check().consistent());
    }
}
