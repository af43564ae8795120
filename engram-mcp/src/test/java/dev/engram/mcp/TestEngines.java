package dev.engram.mcp;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import java.time.Clock;

/** Engines for tests, on engram-core's in-memory fakes. */
public final class TestEngines {
    private TestEngines() {
    }

    public static Engine inMemory(Clock clock) {
        MemoryStore store = new InMemoryMemoryStore();
        return new Engine(store, new InMemorySearchIndex(store), clock);
    }

    public static ToolProfile nativeProfile(Clock clock) {
        return NativeProfile.create(ProfileContext.of(inMemory(clock), "default"),
                JsonText.standard());
    }

    public static ToolProfile serverMemoryProfile(Clock clock) {
        return dev.engram.mcp.profile.servermemory.ServerMemoryProfile.create(
                ProfileContext.of(inMemory(clock), "default"), JsonText.standard());
    }

    public static ToolProfile brainProfile(Clock clock) {
        return dev.engram.mcp.profile.brain.BrainProfile.create(ProfileContext.of(inMemory(clock), "default"),
                JsonText.standard(), java.util.Optional.empty(), clock);
    }

    public static ToolProfile mementoProfile(Clock clock) {
        return dev.engram.mcp.profile.memento.MementoProfile.create(ProfileContext.of(inMemory(clock), "default"), clock);
    }

    public static ToolProfile toonProfile(Clock clock) {
        return dev.engram.mcp.profile.toon.ToonProfile.create(ProfileContext.of(inMemory(clock), "default"),
                java.nio.file.Path.of("").toAbsolutePath(), clock);
    }
}
