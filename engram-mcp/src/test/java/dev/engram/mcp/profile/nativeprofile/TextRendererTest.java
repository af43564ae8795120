package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextRendererTest {
    private static final Instant T = Instant.parse("2026-11-20T08:00:00Z");
    private final Memory zod = Memory.builder().id("m_abcdefgh23").key("use-zod").type(MemoryType.DECISION)
            .content("Use zod for request validation.").tags(List.of("api")).createdAt(T).updatedAt(T).build();

    @Test
    void rankedResultsLeadWithRankTypeKeyIdAndRelevance() {
        RecallResult r = new RecallResult(RecallMode.RANKED, List.of(new RecalledMemory(zod, 1.3, 0.92, List.of(),
                "92% match (+0.92)")), 4, 30, true, List.of("unknown id m_zzzzzzzzzz"), List.of());
        assertEquals("""
                [1] decision/use-zod (m_abcdefgh23) · 92%
                Use zod for request validation.
                tags: api
                why: 92% match (+0.92)

                1 of 4 · ~30 tokens · cut by token budget
                note: unknown id m_zzzzzzzzzz""", new TextRenderer().recall(r));
    }

    @Test
    void indexModeIsOneLinePerMemory() {
        RecallResult r = new RecallResult(RecallMode.INDEX, List.of(new RecalledMemory(zod, 0, 0, List.of(), null),
                new RecalledMemory(zod.toBuilder().id("m_bbbbbbbbbb").key("b").build(), 0, 0.5, List.of(), null)),
                2, 12, false, List.of(), List.of());
        assertEquals("""
                use-zod m_abcdefgh23 decision 2026-11-20
                b m_bbbbbbbbbb decision 2026-11-20 50%

                2 of 2 · ~12 tokens""", new TextRenderer().recall(r));
    }

    @Test
    @SuppressWarnings("unchecked")
    void structuredRecallLeavesAbsentValuesOut() {
        RecallResult r = new RecallResult(RecallMode.RANKED, List.of(new RecalledMemory(zod, 1.23456, 1, List.of(), null)),
                1, 10, false, List.of(), List.of());
        Map<String, Object> item = ((List<Map<String, Object>>) new StructuredRenderer().recall(r).get("results")).get(0);
        assertEquals(1.235, item.get("score"));
        assertEquals("use-zod", item.get("key"));
        assertFalse(item.containsKey("reason"));
        assertFalse(item.containsKey("pinned"));
    }
}
