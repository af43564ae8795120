package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.MemoryRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorableGraphTest {
    private static final int MAX = MemoryRules.MAX_CONTENT_CHARS;

    /** Text without a break to cut at: an emoji across the limit goes whole into the next piece. */
    @Test
    void aPieceNeverEndsInHalfACharacter() {
        String text = "z".repeat(MAX - 1) + "😀" + "y".repeat(10);
        List<String> pieces = StorableGraph.pieces(text);
        assertEquals(List.of("z".repeat(MAX - 1), "😀" + "y".repeat(10)), pieces);
    }

    /** A name over the limit is cut to it, never inside an emoji, and the cut is counted. */
    @Test
    void anOverLongNameIsCutOnACharacterAndSaid() {
        String name = "n".repeat(MAX - 1) + "😀tail";
        StorableGraph g = StorableGraph.of(new KnowledgeGraph(List.of(new KnowledgeGraph.Entity(name, "t", List.of())), List.of()));
        assertEquals("n".repeat(MAX - 1), g.graph().entities().get(0).name());
        assertTrue(g.changes().contains("1 name(s) or type(s) over " + MAX + " characters cut to the limit"), g.changes().toString());
    }
}
