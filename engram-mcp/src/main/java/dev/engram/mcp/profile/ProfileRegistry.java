package dev.engram.mcp.profile;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.brain.BrainProfile;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.profile.servermemory.ServerMemoryProfile;
import dev.engram.mcp.profile.toon.ToonProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The profiles a server can wear, by name; one per server process. It lists only what is built: a
 * planned profile is named in {@link #PLANNED} for messages and docs, never registered as a stub.
 */
public final class ProfileRegistry {
    /** Builds a profile over the shared context; called once, before the server starts. */
    @FunctionalInterface
    public interface Factory {
        ToolProfile create(ProfileContext context, JsonText json);
    }

    public static final String DEFAULT = "native";
    /** Profiles named by an issue but not built; listed so a user asking for one learns it is coming rather than misspelt. */
    public static final List<String> PLANNED = List.of();

    private final Map<String, Factory> factories;

    public ProfileRegistry(Map<String, Factory> factories) {
        Objects.requireNonNull(factories, "factories");
        if (!factories.containsKey(DEFAULT)) throw new IllegalArgumentException("the registry needs the " + DEFAULT + " profile");
        this.factories = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(factories));
    }

    /** Every profile Engram ships, default first. */
    public static ProfileRegistry standard() {
        Map<String, Factory> all = new LinkedHashMap<>();
        all.put(DEFAULT, NativeProfile::create);
        all.put(ServerMemoryProfile.NAME, ServerMemoryProfile::create);
        all.put(BrainProfile.NAME, BrainProfile::create);
        all.put(ToonProfile.NAME, ToonProfile::create);
        all.put(MementoProfile.NAME, MementoProfile::create);
        return new ProfileRegistry(all);
    }

    /** The registered names, default first. */
    public List<String> names() {
        return List.copyOf(factories.keySet());
    }

    public Optional<Factory> find(String name) {
        return Optional.ofNullable(factories.get(name));
    }

    /** Why {@code name} is not a profile, with the names that are; for a start-up error. */
    public String unknown(String name) {
        String available = "choose one of: " + String.join(", ", names());
        return PLANNED.contains(name)
                ? "'" + name + "' is planned but not built yet; " + available
                : "'" + name + "' is not a profile; " + available;
    }

    /** Builds the named profile; the name must be registered (check with {@link #find} first). */
    public ToolProfile create(String name, ProfileContext context, JsonText json) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(unknown(name))).create(context, json);
    }
}
