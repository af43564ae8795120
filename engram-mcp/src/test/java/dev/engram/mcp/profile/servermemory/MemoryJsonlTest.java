package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        KnowledgeGraph g = codec.read(FILE).graph();
        assertEquals(List.of(
                new KnowledgeGraph.Entity("John Smith", "person", List.of("Speaks fluent Spanish", "Graduated in 2019")),
                new KnowledgeGraph.Entity("서울 프로젝트", "프로젝트", List.of("마감은 금요일")),
                new KnowledgeGraph.Entity("Empty", "thing", List.of())), g.entities());
        assertEquals(List.of(new KnowledgeGraph.Relation("John Smith", "서울 프로젝트", "works_on")), g.relations());
    }

    @Test
    void writesTheSameBytesItRead() {
        assertEquals(FILE, codec.write(codec.read(FILE).graph()));
        assertEquals("", codec.write(KnowledgeGraph.empty()));
    }

    @Test
    void skipsBlankLinesACrlfAndABomLikeServerMemory() {
        MemoryJsonl.Read read = codec.read("\uFEFF\n" + FILE.replace("\n", "\r\n\n  \n") + "\n");
        KnowledgeGraph g = read.graph();
        assertEquals(List.of(), read.skipped());
        assertEquals(3, g.entities().size());
        assertEquals(1, g.relations().size());
    }

    @Test
    void keepsTextExactly() {
        String line = "{\"type\":\"entity\",\"name\":\" padded \",\"entityType\":\"t\",\"observations\":[\"  two  spaces \",\"tab\\there\"]}";
        KnowledgeGraph g = codec.read(line).graph();
        assertEquals(" padded ", g.entities().get(0).name());
        assertEquals(List.of("  two  spaces ", "tab\there"), g.entities().get(0).observations());
        assertEquals(line, codec.write(g));
    }

    @Test
    void ignoresFieldsServerMemoryDoesNotWrite() {
        KnowledgeGraph g = codec.read("{\"type\":\"entity\",\"name\":\"A\",\"entityType\":\"t\",\"observations\":[],\"createdAt\":1}").graph();
        assertEquals("A", g.entities().get(0).name());
    }

    /** server-memory skips lines of another type; the other bad lines are skipped too, each named, and the rest is read. */
    @Test
    void skipsEachBadLineNamingItsNumberAndTheShapeAndReadsTheRest() {
        MemoryJsonl.Read read = codec.read(FILE + "\n{oops"
                + "\n{\"name\":\"A\"}"
                + "\n{\"type\":\"note\",\"name\":\"A\"}"
                + "\n{\"type\":\"entity\",\"name\":\"A\",\"observations\":[]}"
                + "\n{\"type\":\"entity\",\"name\":\"A\",\"entityType\":\"t\",\"observations\":[1]}"
                + "\n{\"type\":\"relation\",\"from\":\"A\",\"relationType\":\"knows\"}"
                + "\n{\"type\":\"entity\",\"name\":\"Last\",\"entityType\":\"t\",\"observations\":[]}");
        assertEquals(List.of("John Smith", "서울 프로젝트", "Empty", "Last"),
                read.graph().entities().stream().map(KnowledgeGraph.Entity::name).toList());
        assertEquals(1, read.graph().relations().size());
        List<String> skipped = read.skipped();
        assertEquals(6, skipped.size(), skipped.toString());
        assertTrue(skipped.get(0).startsWith("line 5: not JSON"), skipped.get(0));
        assertTrue(skipped.get(1).startsWith("line 6: \"type\" is missing, neither \"entity\" nor \"relation\""), skipped.get(1));
        assertTrue(skipped.get(2).startsWith("line 7: \"type\" is \"note\""), skipped.get(2));
        assertTrue(skipped.get(3).contains("\"entityType\" as a string"), skipped.get(3));
        assertTrue(skipped.get(3).contains("\"observations\":[\"likes tea\"]"), skipped.get(3));
        assertTrue(skipped.get(4).startsWith("line 9: ") && skipped.get(4).contains("only strings"), skipped.get(4));
        assertTrue(skipped.get(5).contains("\"to\" as a string and has none"), skipped.get(5));
    }
}
