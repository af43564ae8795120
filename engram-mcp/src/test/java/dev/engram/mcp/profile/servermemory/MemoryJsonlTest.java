package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.JsonText;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryJsonlTest {
    private final MemoryJsonl codec = new MemoryJsonl(JsonText.standard());

    /** As server-memory 2026.8.31 wrote it for these calls (entities first, no newline after the last line). */
    private static final String FILE = """
            {"type":"entity","name":"John Smith","entityType":"person","observations":["Speaks fluent Spanish","Graduated in 2019"]}
            {"type":"entity","name":"서울 프로젝트","entityType":"프로젝트","observations":["마감은 금요일"]}
            {"type":"entity","name":"Empty","entityType":"thing","observations":[]}
            {"type":"relation","from":"John Smith","to":"서울 프로젝트","relationType":"works_on"}""";

    @Test
    void readsEntitiesAndRelationsInOrder() {
        KnowledgeGraph g = codec.read(FILE);
        assertEquals(List.of(
                new KnowledgeGraph.Entity("John Smith", "person", List.of("Speaks fluent Spanish", "Graduated in 2019")),
                new KnowledgeGraph.Entity("서울 프로젝트", "프로젝트", List.of("마감은 금요일")),
                new KnowledgeGraph.Entity("Empty", "thing", List.of())), g.entities());
        assertEquals(List.of(new KnowledgeGraph.Relation("John Smith", "서울 프로젝트", "works_on")), g.relations());
    }

    @Test
    void writesTheSameBytesItRead() {
        assertEquals(FILE, codec.write(codec.read(FILE)));
        assertEquals("", codec.write(KnowledgeGraph.empty()));
    }

    @Test
    void skipsBlankLinesACrlfAndABomLikeServerMemory() {
        KnowledgeGraph g = codec.read("\uFEFF\n" + FILE.replace("\n", "\r\n\n  \n") + "\n");
        assertEquals(3, g.entities().size());
        assertEquals(1, g.relations().size());
    }

    @Test
    void keepsTextExactly() {
        String line = "{\"type\":\"entity\",\"name\":\" padded \",\"entityType\":\"t\",\"observations\":[\"  two  spaces \",\"tab\\there\"]}";
        KnowledgeGraph g = codec.read(line);
        assertEquals(" padded ", g.entities().get(0).name());
        assertEquals(List.of("  two  spaces ", "tab\there"), g.entities().get(0).observations());
        assertEquals(line, codec.write(g));
    }

    @Test
    void ignoresFieldsServerMemoryDoesNotWrite() {
        KnowledgeGraph g = codec.read("{\"type\":\"entity\",\"name\":\"A\",\"entityType\":\"t\",\"observations\":[],\"createdAt\":1}");
        assertEquals("A", g.entities().get(0).name());
    }

    @Test
    void refusesABadLineNamingItsNumberAndTheShape() {
        var notJson = assertThrows(EngramUserException.class, () -> codec.read(FILE + "\n{oops"));
        assertTrue(notJson.getMessage().startsWith("line 5: "), notJson.getMessage());
        var noType = assertThrows(EngramUserException.class, () -> codec.read("{\"name\":\"A\"}"));
        assertTrue(noType.getMessage().contains("\"type\" must be \"entity\" or \"relation\""), noType.getMessage());
        var missing = assertThrows(EngramUserException.class,
                () -> codec.read("{\"type\":\"entity\",\"name\":\"A\",\"observations\":[]}"));
        assertTrue(missing.getMessage().contains("\"entityType\" as a string"), missing.getMessage());
        assertTrue(missing.getMessage().contains("\"observations\":[\"likes tea\"]"), missing.getMessage());
        var badObservation = assertThrows(EngramUserException.class,
                () -> codec.read("{\"type\":\"entity\",\"name\":\"A\",\"entityType\":\"t\",\"observations\":[1]}"));
        assertTrue(badObservation.getMessage().contains("only strings"), badObservation.getMessage());
        var relation = assertThrows(EngramUserException.class,
                () -> codec.read("{\"type\":\"relation\",\"from\":\"A\",\"relationType\":\"knows\"}"));
        assertTrue(relation.getMessage().contains("\"to\" as a string and has none"), relation.getMessage());
    }
}
