package dev.engram.mcp;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.NativeProfile;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.render.Renderers;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.testing.InMemoryMemoryStore;
import java.time.Clock;
import java.util.Optional;

/**
 * Engines for tests, on engram-core's in-memory fakes. The search-index fake is looked up by name
 * because it reaches this branch only with the store merge; until then {@link #inMemory} is empty
 * and tests that need a working engine are skipped (assumed), not weakened.
 */
public final class TestEngines {
    private TestEngines() {
    }

    public static Optional<Engine> inMemory(Clock clock) {
        MemoryStore store = new InMemoryMemoryStore();
        try {
            SearchIndex index = (SearchIndex) Class.forName("dev.engram.testing.InMemorySearchIndex")
                    .getConstructor(MemoryStore.class).newInstance(store);
            return Optional.of(new Engine(store, index, clock));
        } catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }

    /** The native profile on an in-memory engine, or on one that fails every call when none is available. */
    public static ToolProfile nativeProfile(Clock clock) {
        Optional<Engine> engine = inMemory(clock);
        return NativeProfile.create(new ProfileContext(() -> engine.orElseThrow(
                () -> new UnsupportedOperationException("no in-memory search index on this branch yet")),
                Renderers.standard(), "default"), JsonText.standard());
    }
}
