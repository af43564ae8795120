package dev.engram.cli.hook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import dev.engram.rank.Freshness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The prompt hook's rules without a store: filler, length, the archival cut and the 10,000-character cap. */
class PromptHookTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private static HookMemory.Recalled recalled(String name, double daysOld, int interval) {
        return new HookMemory.Recalled(name, "Project", Freshness.of(NOW.minusSeconds((long) (daysOld * 86400)), interval, NOW),
                List.of("first", "second", "third", "fourth"));
    }

    private static HookMemory memory(List<HookMemory.Recalled> found) {
        return new HookMemory() {
            public List<Recalled> recall(String zone, String query, int max) {
                return found.subList(0, Math.min(max, found.size()));
            }
            public List<String> related(String zone, String text, int max) {
                return List.of();
            }
            public int save(String zone, List<SaveItem> items) {
                return 0;
            }
            public boolean verify(String zone, String name) {
                return false;
            }
        };
    }

    private static PromptHook hook(List<HookMemory.Recalled> found, Map<String, String> env) {
        return new PromptHook(memory(found), Optional.empty(), HookSettings.from(env, "default"), JsonText.standard(), m -> { });
    }

    private static HookInput prompt(String text) {
        return new HookInput(Map.of("prompt", text));
    }

    @Test
    void fillerAndShortPromptsAreSkipped() {
        PromptHook h = hook(List.of(recalled("a", 0, 7)), Map.of());
        for (String p : List.of("ok", "Thanks!", "go ahead.", "sounds good", "y", "deploy it now please")) {
            assertEquals("", h.run(prompt(p)), p);
        }
        assertTrue(h.run(prompt("please deploy the service to production now")).contains("**a**"));
        assertTrue(hook(List.of(recalled("a", 0, 7)), Map.of("MEMORY_HOOK_MIN_WORDS", "1")).run(prompt("deploy")).contains("**a**"));
        assertEquals("", hook(List.of(recalled("a", 0, 7)), Map.of("MEMORY_HOOK_MIN_WORDS", "1")).run(prompt("continue")));
    }

    @Test
    void archivalEntitiesAreLeftOutAndOverdueOnesMarked() {
        String out = hook(List.of(recalled("fresh", 0, 7), recalled("aging", 10, 7), recalled("archival", 30, 7)), Map.of())
                .run(prompt("what do we know about these projects here"));
        assertTrue(out.contains("  - **fresh** (Project)\n    - first\n    - second\n    - third\n"), out);
        assertTrue(out.contains("  - **aging** (Project ⚠ needs review)\n"), out);
        assertFalse(out.contains("archival"), out);
        assertFalse(out.contains("fourth"), "three observations at most");
    }

    @Test
    void outputStopsAtTenThousandCharactersWithWholeEntries() {
        List<HookMemory.Recalled> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(new HookMemory.Recalled("entity-" + i + "-" + "x".repeat(60), "Project", Freshness.of(NOW, 7, NOW),
                    List.of("o".repeat(100), "p".repeat(100), "q".repeat(100))));
        }
        Map<String, List<HookMemory.Recalled>> byZone = new LinkedHashMap<>();
        byZone.put("default", many);
        String out = PromptHook.render(byZone, new LinkedHashSet<>(many.stream().map(HookMemory.Recalled::name).toList()));
        assertTrue(out.length() <= HookSettings.MAX_OUTPUT_CHARS, "length " + out.length());
        assertTrue(out.length() > HookSettings.MAX_OUTPUT_CHARS - 500, "fills the budget: " + out.length());
        assertTrue(out.endsWith("    - " + "q".repeat(100) + "\n</memory>\n"), "whole entries, closed block");
    }
}
