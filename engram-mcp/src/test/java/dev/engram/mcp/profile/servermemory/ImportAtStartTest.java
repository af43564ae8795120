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

    private Supplier<Engine> importing(Path file) {
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
    void aMissingOrBadFileIsReportedAndTheServerGoesOn() throws Exception {
        importing(dir.resolve("nope.jsonl")).get();
        assertTrue(log().contains("does not exist; nothing to import"), log());
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[]}\nnot json");
        assertSame(engine, importing(bad).get());
        assertTrue(log().contains("could not import") && log().contains("line 2") && log().contains("engram import --from server-memory"), log());
        assertTrue(engine.entities().read("default").entities().isEmpty(), "a bad file imports nothing");
    }
}
