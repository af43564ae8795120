package dev.engram.mcp.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProfileRegistryTest {
    private final ProfileContext context = ProfileContext.of(TestEngines.inMemory(Clock.systemUTC()),
            "default");

    @Test
    void standardListsOnlyWhatIsBuilt() {
        ProfileRegistry registry = ProfileRegistry.standard();
        assertEquals(List.of("native", "server-memory", "brain", "toon", "memento"), registry.names());
        for (String planned : ProfileRegistry.PLANNED) {
            assertTrue(registry.find(planned).isEmpty(), planned + " is planned, not registered");
        }
    }

    @Test
    void nativeBuildsTheNativeProfile() {
        ToolProfile p = ProfileRegistry.standard().create("native", context, JsonText.standard());
        assertEquals("native", p.name());
        assertEquals(9, p.tools().size());
    }

    @Test
    void serverMemoryBuildsItsNineToolsAndTheGraphResource() {
        ToolProfile p = ProfileRegistry.standard().create("server-memory", context, JsonText.standard());
        assertEquals("server-memory", p.name());
        assertEquals(List.of("create_entities", "create_relations", "add_observations", "delete_entities",
                "delete_observations", "delete_relations", "read_graph", "search_nodes", "open_nodes"),
                p.tools().stream().map(t -> t.definition().name()).toList());
        assertEquals("memory://knowledge-graph", p.resources().get(0).resource().uri());
    }

    @Test
    void mementoBuildsItsSeventeenTools() {
        ToolProfile p = ProfileRegistry.standard().create("memento", context, JsonText.standard());
        assertEquals("memento", p.name());
        assertEquals(17, p.tools().size());
        assertEquals("context", p.tools().get(0).definition().name());
    }

    @Test
    void unknownNamesAreExplainedWithTheAvailableOnes() {
        ProfileRegistry registry = ProfileRegistry.standard();
        assertEquals("'nope' is not a profile; choose one of: native, server-memory, brain, toon, memento", registry.unknown("nope"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> registry.create("nope", context, JsonText.standard()));
        assertEquals(registry.unknown("nope"), e.getMessage());
    }

    @Test
    void namesKeepRegistrationOrderAndTheDefaultIsRequired() {
        Map<String, ProfileRegistry.Factory> f = new LinkedHashMap<>();
        f.put("native", NativeProfile::create);
        f.put("other", NativeProfile::create);
        assertEquals(List.of("native", "other"), new ProfileRegistry(f).names());
        assertThrows(IllegalArgumentException.class,
                () -> new ProfileRegistry(Map.of("other", NativeProfile::create)));
    }
}
