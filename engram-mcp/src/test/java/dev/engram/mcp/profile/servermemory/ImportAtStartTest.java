package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportAtStartTest {
    @TempDir
    Path dir;

    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private final ServerMemoryData data = new ServerMemoryData(JsonText.standard());
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private ImportAtStart importing(Path file) {
        return data.importingOnce(() -> engine, "default", file, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Test
    void importsOnceOnTheFirstCallWhenTheZoneHoldsNoEntity() throws Exception {
        Path file = dir.resolve("memory.jsonl");
        Files.writeString(file, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\"]}");
        Supplier<Engine> engines = importing(file);
        assertEquals("", log(), "nothing happens before the engine is needed");
        assertSame(engine, engines.get());
        assertTrue(log().contains("imported 1 entities") && log().contains(file.toString()), log());
        engine.entities().delete("default", List.of("Alice"), true);
        engines.get();
        assertTrue(engine.entities().read("default").entities().isEmpty(), "once per process, even if the zone empties");
    }

    @Test
    void aRestartAfterDeletingEverythingDoesNotBringTheFileBack() throws Exception {
        Path file = dir.resolve("memory.jsonl");
        Files.writeString(file, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\"]}");
        importing(file).get();
        engine.entities().delete("default", List.of("Alice"), true);
        importing(file).get(); // a new server process on the same store
        assertTrue(engine.entities().read("default").entities().isEmpty(), "the store remembers the import ran: " + log());
        Path other = dir.resolve("other.jsonl");
        Files.writeString(other, "{\"type\":\"entity\",\"name\":\"Bob\",\"entityType\":\"person\",\"observations\":[]}");
        importing(other).get();
        assertTrue(engine.entities().find("default", "Bob").isPresent(), "another file is another import");
    }

    @Test
    void aZoneThatHoldsEntitiesIsLeftAlone() throws Exception {
        engine.entities().create("default", List.of(new EntityDraft("Bob", "person", List.of())), ExistingEntity.SKIP);
        Path file = dir.resolve("memory.jsonl");
        Files.writeString(file, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[]}");
        importing(file).get();
        assertTrue(engine.entities().find("default", "Alice").isEmpty());
        assertEquals("", log());
    }

    @Test
    void aMissingFileOrADirectoryIsReportedAndTheServerGoesOn() throws Exception {
        importing(dir.resolve("nope.jsonl")).get();
        assertTrue(log().contains("does not exist; nothing to import"), log());
        Files.createDirectory(dir.resolve("a-dir"));
        assertSame(engine, importing(dir.resolve("a-dir")).get());
        assertTrue(log().contains("a-dir is a directory, not a memory.jsonl file"), log());
    }

    /**
     * What server-memory's own tools write, and lines it skips, no longer keep the rest of the file out: the agent saw
     * an empty memory when one line broke an Engram rule (an outside probe's finding).
     */
    @Test
    void whatEngramWouldRefuseIsMendedOrLeftOutAndTheRestIsImported() throws Exception {
        Path file = dir.resolve("memory.jsonl");
        String long9000 = "z".repeat(9_000);
        Files.writeString(file, String.join("\n",
                "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\",\"  \",\"bad \\ud800 half\"]}",
                "{\"type\":\"entity\",\"name\":\"Design doc\",\"entityType\":\"document\",\"observations\":[\"" + long9000 + "\"]}",
                "{\"type\":\"entity\",\"name\":\" \",\"entityType\":\"thing\",\"observations\":[\"y\"]}",
                "{\"name\":\"no type\"}",
                "{\"type\":\"note\",\"text\":\"another kind\"}",
                "not json",
                "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Design doc\",\"relationType\":\"wrote\"}",
                "{\"type\":\"relation\",\"from\":\" \",\"to\":\"Alice\",\"relationType\":\"knows\"}"));
        importing(file).get();
        KnowledgeGraph g = GraphRenderer.graph(engine.entities().read("default"));
        assertEquals(List.of("Alice", "Design doc"), g.entities().stream().map(KnowledgeGraph.Entity::name).toList(), log());
        assertEquals(List.of("x", "bad \uFFFD half"), g.entities().get(0).observations());
        assertEquals(List.of("z".repeat(8_000), "z".repeat(1_000)), g.entities().get(1).observations(), "split, nothing lost");
        assertEquals(List.of(new KnowledgeGraph.Relation("Alice", "Design doc", "wrote")), g.relations());
        String said = log();
        for (String part : List.of("imported 2 entities", "3 line(s) skipped and left in the file (line 4: ", "line 5: ",
                "line 6: not JSON", "1 lone UTF-16 surrogate(s) replaced by U+FFFD",
                "1 observation(s) over 8000 characters split into several", "1 blank observation(s) left out",
                "1 entit(ies) with a blank name left out", "1 relation(s) with a blank end or type left out")) {
            assertTrue(said.contains(part), part + " in " + said);
        }
    }

    /** A failed import is tried again at the next start, even once the agent, seeing an empty memory, has written. */
    @Test
    void aFailedImportIsTriedAgainAfterTheAgentWroteAndMergesWithIt() throws Exception {
        Path file = dir.resolve("memory.jsonl");
        Files.write(file, new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}); // not UTF-8 at all
        importing(file).get();
        assertTrue(log().contains("could not import") && log().contains("tried again at the next start"), log());
        assertTrue(log().contains("is not UTF-8 text"), "the reason in words: " + log());
        engine.entities().create("default", List.of(new EntityDraft("Carol", "person", List.of("new"))), ExistingEntity.SKIP);
        Files.writeString(file, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\"]}");
        importing(file).get(); // the next start
        assertTrue(engine.entities().find("default", "Alice").isPresent(), log());
        assertTrue(engine.entities().find("default", "Carol").isPresent(), "what the agent wrote meanwhile stays");
        engine.entities().delete("default", List.of("Alice"), true);
        importing(file).get();
        assertTrue(engine.entities().find("default", "Alice").isEmpty(), "once imported, never again");
    }

    /** read_graph through the noting profile over {@code engines}, as {@code session} calls it. */
    private io.modelcontextprotocol.spec.McpSchema.CallToolResult readGraph(ImportAtStart engines, String session) {
        var profile = engines.noting(ServerMemoryProfile.create(new dev.engram.mcp.profile.ProfileContext(engines, "default"),
                JsonText.standard()));
        var tool = profile.tools().stream().filter(t -> t.definition().name().equals("read_graph")).findFirst().orElseThrow();
        return dev.engram.mcp.tool.ToolAdapter.call(tool, java.util.Map.of(), new dev.engram.mcp.tool.Caller(session, null));
    }

    private static List<String> texts(io.modelcontextprotocol.spec.McpSchema.CallToolResult r) {
        return r.content().stream().map(c -> ((io.modelcontextprotocol.spec.McpSchema.TextContent) c).text()).toList();
    }

    /**
     * A failed import was on stderr only, so the agent took the empty graph for the whole memory. Now each session's
     * first answer says so after the JSON, which stays exactly server-memory's (text and structured content).
     */
    @Test
    void aFailedImportIsToldInEachSessionsFirstAnswerAfterTheUnchangedJson() throws Exception {
        Path file = dir.resolve("memory.jsonl");
        Files.write(file, new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}); // not UTF-8 at all
        ImportAtStart engines = importing(file);
        var first = readGraph(engines, "claude-code/s-1");
        assertEquals(false, first.isError());
        List<String> said = texts(first);
        assertEquals(2, said.size(), said.toString());
        assertEquals("{\n  \"entities\": [],\n  \"relations\": []\n}", said.get(0));
        assertEquals(java.util.Map.of("entities", List.of(), "relations", List.of()), first.structuredContent());
        for (String part : List.of("Note from the server: the memory file in MEMORY_FILE_PATH could not be imported: ",
                "is not UTF-8 text", "holds none of its entities and relations; " + file + " is unchanged",
                "Tell the user: once the file is fixed, the next start imports it", "engram import --from server-memory " + file)) {
            assertTrue(said.get(1).contains(part), part + " in " + said.get(1));
        }
        assertEquals(1, texts(readGraph(engines, "claude-code/s-1")).size(), "once per session");
        assertEquals(2, texts(readGraph(engines, "claude-code/s-2")).size(), "another session is told too");
        assertTrue(engines.failure().contains("is not UTF-8 text"));
    }

    @Test
    void aDirectoryIsToldButAMissingFileOrAnImportThatRanIsNot() throws Exception {
        Files.createDirectory(dir.resolve("a-dir"));
        List<String> said = texts(readGraph(importing(dir.resolve("a-dir")), "s"));
        assertEquals(2, said.size(), said.toString());
        assertTrue(said.get(1).contains("could not be imported: it is a directory, not a memory.jsonl file. "), said.get(1));
        engine.entities().create("default", List.of(new EntityDraft("Bob", "person", List.of())), ExistingEntity.SKIP);
        assertEquals(2, texts(readGraph(importing(dir.resolve("a-dir")), "s")).size(),
                "told at the next start too, though the agent wrote meanwhile");
        engine.entities().delete("default", List.of("Bob"), true);
        assertEquals(1, texts(readGraph(importing(dir.resolve("nope.jsonl")), "s")).size(),
                "server-memory starts empty on a missing file too");
        Path file = dir.resolve("memory.jsonl");
        Files.writeString(file, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\"]}");
        ImportAtStart fine = importing(file);
        assertEquals(1, texts(readGraph(fine, "s")).size());
        assertEquals(null, fine.failure());
    }

    /** The reason an agent reads: what the user can act on, never a Java class. */
    @Test
    void aStoreFailureIsToldInWords() {
        String unreachable = ServerMemoryData.why(new dev.engram.error.StoreUnavailableException("import", "connection refused", null));
        assertTrue(unreachable.startsWith("the store is unreachable (import): connection refused"), unreachable);
        assertEquals("the store failed while importing it (the server's stderr has the details)",
                ServerMemoryData.why(new IllegalStateException("tools.jackson.databind.JsonMappingException: x")));
        assertTrue(ImportAtStart.note(dir, "is it the right file?").contains("could not be imported: is it the right file? This"),
                "no full stop after a question mark");
    }
}
