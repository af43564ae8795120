package dev.engram.engine;

import dev.engram.memory.Importance;
import dev.engram.memory.MemoryType;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;

/** An engine on the in-memory fakes with a hand-moved clock. */
final class EngineFixture {
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final InMemoryMemoryStore store = new InMemoryMemoryStore();
    final InMemorySearchIndex index = new InMemorySearchIndex(store);
    final Engine engine = new Engine(store, index, clock);

    RememberResult remember(String content) {
        return engine.remember(RememberCommand.of(content));
    }

    RememberResult remember(String key, String content, MemoryType type, List<String> tags) {
        return engine.remember(new RememberCommand(content, key, type, tags, null, null, null, null, null, null, null,
                false, null, null));
    }

    RememberResult remember(String key, String content, Importance importance) {
        return engine.remember(new RememberCommand(content, key, null, null, null, importance, null, null, null, null,
                null, false, null, null));
    }

    static RecallQuery query(String text) {
        return RecallQuery.of(text);
    }

    static RecallQuery.Builder recall(String text) {
        return RecallQuery.builder(text);
    }
}
