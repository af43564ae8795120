package dev.engram.mcp.profile.memento;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The four presets hide exactly Memento's tool lists and keep the profile's order otherwise. */
class MementoModesTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ToolProfile profile = MementoProfile.create(ProfileContext.of(new Engine(store, new InMemorySearchIndex(store), clock),
            "default"), clock);

    private List<String> names(ToolProfile p) {
        return p.tools().stream().map(t -> t.definition().name()).toList();
    }

    @Test
    void presetsHideMementosToolLists() {
        assertEquals(List.of("recall-only", "write-only", "onboarding", "audit"), MementoModes.names());
        assertEquals(List.of("context", "recall", "graph_explore", "fragment_history", "memory_stats", "tool_feedback",
                "get_skill_guide", "reconstruct_history", "search_traces", "session_rotate"), names(MementoModes.variant(profile, "recall-only")));
        assertEquals(List.of("remember", "batch_remember", "reflect", "forget", "link", "amend", "memory_consolidate", "tool_feedback",
                "get_skill_guide", "session_rotate"), names(MementoModes.variant(profile, "write-only")));
        assertEquals(List.of("context", "recall", "graph_explore", "fragment_history", "memory_stats", "memory_consolidate",
                "tool_feedback", "get_skill_guide", "reconstruct_history", "search_traces", "session_rotate"),
                names(MementoModes.variant(profile, "audit")));
        List<String> onboarding = names(MementoModes.variant(profile, " ONBOARDING "));
        assertEquals("get_skill_guide", onboarding.get(0));
        assertEquals(names(profile).size(), onboarding.size());
        assertTrue(MementoModes.variant(profile, "audit").instructions().contains("audit mode"));
        assertEquals(profile.resources().size(), MementoModes.variant(profile, "audit").resources().size());
    }

    @Test
    void anUnknownPresetIsRefusedNamingTheOthers() {
        String m = assertThrows(InvalidArgumentException.class, () -> MementoModes.variant(profile, "read-only")).getMessage();
        assertTrue(m.contains("'read-only' is not a mode preset") && m.contains("recall-only, write-only, onboarding, audit"), m);
    }
}
