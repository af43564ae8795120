package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.engine.graph.MissingEndpoint;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.spi.MemoryStore;
import dev.engram.store.IndexCheck;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** engram import --from server-memory / export --format server-memory, on the in-memory fakes. */
class ServerMemoryImportExportTest {
    /** As server-memory writes it: names that are not slugs, Korean, padded text, no newline at the end. */
    private static final String FILE = String.join("\n",
            "{\"type\":\"entity\",\"name\":\"John Smith\",\"entityType\":\"person\",\"observations\":[\"  speaks Spanish  \",\"a, b; c\"]}",
            "{\"type\":\"entity\",\"name\":\"iaptic-server: uses TypeScript\",\"entityType\":\"project\",\"observations\":[]}",
            "{\"type\":\"entity\",\"name\":\"김민수\",\"entityType\":\"사람\",\"observations\":[\"서울에 산다\"]}",
            "{\"type\":\"relation\",\"from\":\"John Smith\",\"to\":\"김민수\",\"relationType\":\"knows\"}",
            "{\"type\":\"relation\",\"from\":\"김민수\",\"to\":\"iaptic-server: uses TypeScript\",\"relationType\":\"works_on\"}");

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));

    private Engine engine() {
        MemoryStore store = new InMemoryMemoryStore();
        return new Engine(store, new InMemorySearchIndex(store), clock);
    }

    private CliRunner cli(Engine engine) {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void importThenExportGivesTheSameBytes() throws Exception {
        Path file = write("memory.jsonl", FILE);
        Engine engine = engine();
        CliRunner cli = cli(engine);
        CliRunner.Run imported = cli.run("import", "--from", "server-memory", file.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.err().startsWith("imported 3 entities (0 already there), 3 observations, 2 relations"), imported.err());
        CliRunner.Run exported = cli.run("export", "--format", "server-memory");
        assertEquals(0, exported.exitCode(), exported.err());
        assertEquals(FILE, exported.out());
        Path out = dir.resolve("out.jsonl");
        assertEquals(0, cli.run("export", "--format", "server-memory", "--out", out.toString()).exitCode());
        assertEquals(FILE, Files.readString(out, StandardCharsets.UTF_8));

        CliRunner.Run again = cli.run("import", "--from", "server-memory", file.toString());
        assertTrue(again.err().startsWith("imported 0 entities (3 already there), 0 observations, 0 relations"), again.err());
        assertEquals(FILE, cli.run("export", "--format", "server-memory").out(), "a second import changes nothing");
    }

    @Test
    void anImportMergesIntoWhatTheZoneHoldsAndKeepsRelationsToEntitiesTheFileLacks() throws Exception {
        Engine engine = engine();
        engine.entities().create("work", List.of(new EntityDraft("John Smith", "engineer", List.of("likes tea"))), ExistingEntity.SKIP);
        Path file = write("memory.jsonl", FILE + "\n{\"type\":\"relation\",\"from\":\"John Smith\",\"to\":\"Ghost\",\"relationType\":\"fears\"}");
        CliRunner cli = cli(engine);
        CliRunner.Run imported = cli.run("--zone", "work", "import", "--from", "server-memory", file.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.err().contains("created 1 entities of type 'unknown'"), imported.err());
        var john = engine.entities().find("work", "John Smith").orElseThrow();
        assertEquals("engineer", john.entityType(), "the stored type stays");
        assertEquals(List.of("likes tea", "  speaks Spanish  ", "a, b; c"), john.observationTexts());
        assertEquals("unknown", engine.entities().find("work", "Ghost").orElseThrow().entityType());
        assertTrue(engine.entities().read("default").entities().isEmpty(), "--zone chose the zone");
    }

    @Test
    void aLaterFileFillsTheUnknownEntityAnEarlierOneCreatedForARelationEnd() throws Exception {
        Engine engine = engine();
        CliRunner cli = cli(engine);
        Path first = write("first.jsonl", "{\"type\":\"entity\",\"name\":\"John Smith\",\"entityType\":\"person\",\"observations\":[]}\n"
                + "{\"type\":\"relation\",\"from\":\"John Smith\",\"to\":\"Acme\",\"relationType\":\"works_at\"}");
        assertTrue(cli.run("import", "--from", "server-memory", first.toString()).err().contains("created 1 entities of type 'unknown'"));
        Path second = write("second.jsonl", "{\"type\":\"entity\",\"name\":\"Acme\",\"entityType\":\"company\",\"observations\":[\"makes anvils\"]}");
        CliRunner.Run imported = cli.run("import", "--from", "server-memory", second.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.err().contains("gave 1 entities of type 'unknown'") && imported.err().contains("(0 already there)"),
                imported.err());
        var acme = engine.entities().find("default", "Acme").orElseThrow();
        assertEquals("company", acme.entityType());
        assertEquals(List.of("makes anvils"), acme.observationTexts());
        assertEquals(1, engine.entities().read("default").relations().size());
    }

    @Test
    void aRelationFromAnEntityToItselfIsSkippedAndSaidNotARefusalOfTheFile() throws Exception {
        Engine engine = engine();
        Path file = write("self.jsonl", "{\"type\":\"entity\",\"name\":\"A\",\"entityType\":\"t\",\"observations\":[]}\n"
                + "{\"type\":\"entity\",\"name\":\"B\",\"entityType\":\"t\",\"observations\":[]}\n"
                + "{\"type\":\"relation\",\"from\":\"A\",\"to\":\"A\",\"relationType\":\"reflects\"}\n"
                + "{\"type\":\"relation\",\"from\":\"A\",\"to\":\"B\",\"relationType\":\"knows\"}");
        CliRunner.Run imported = cli(engine).run("import", "--from", "server-memory", file.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.err().contains("skipped 1 relation(s) from an entity to itself"), imported.err());
        assertEquals(1, engine.entities().read("default").relations().size(), "the other relation is kept");
    }

    @Test
    void exportNamesRelationsThatCrossZones() throws Exception {
        Engine engine = engine();
        engine.entities().create("a", List.of(new EntityDraft("Alice", "person", List.of())), ExistingEntity.SKIP);
        engine.entities().create("b", List.of(new EntityDraft("Bob", "person", List.of())), ExistingEntity.SKIP);
        engine.entities().relate("a", List.of(new RelationDraft(null, "Alice", "b", "Bob", "knows")), MissingEndpoint.FAIL);
        assertEquals("{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[]}\n"
                        + "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Bob\",\"relationType\":\"knows\"}",
                cli(engine).run("--zone", "a", "export", "--format", "server-memory").out());
    }

    /** A line it cannot use is skipped and named, an item Engram would refuse is left out and counted; the rest goes in. */
    @Test
    void aBadLineOrItemIsSkippedAndSaidAndTheRestOfTheFileIsImported() throws Exception {
        Path file = write("memory.jsonl", FILE + "\n{\"type\":\"entity\",\"name\":\"X\"}"
                + "\n{\"type\":\"entity\",\"name\":\"\",\"entityType\":\"x\",\"observations\":[]}");
        Engine engine = engine();
        CliRunner.Run dry = cli(engine).run("import", "--from", "server-memory", "--dry-run", file.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.err().contains("1 line(s) skipped and left in the file (line 6: an entity needs \"entityType\""), dry.err());
        assertTrue(engine.entities().read("default").entities().isEmpty(), "a dry run writes nothing");
        CliRunner.Run r = cli(engine).run("import", "--from", "server-memory", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("line 6: an entity needs \"entityType\"")
                && r.err().contains("1 entit(ies) with a blank name left out"), r.err());
        assertEquals(FILE, cli(engine).run("export", "--format", "server-memory").out(), "every good line came in");
    }

    @Test
    void aDryRunCountsAndWritesNothing() throws Exception {
        Path file = write("memory.jsonl", FILE);
        Engine engine = engine();
        CliRunner.Run r = cli(engine).run("import", "--from", "server-memory", "--dry-run", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("would import 3 entities"), r.err());
        assertTrue(engine.entities().read("default").entities().isEmpty());
    }

    @Test
    void unknownFormatsAreRefusedWithTheChoices() throws Exception {
        Path file = write("memory.jsonl", FILE);
        CliRunner cli = cli(engine());
        CliRunner.Run i = cli.run("import", "--from", "mem0", file.toString());
        assertEquals(ErrorReporter.USER_ERROR, i.exitCode());
        assertTrue(i.err().contains("send engram, server-memory, brain, toon or memento"), i.err());
        CliRunner.Run e = cli.run("export", "--format", "csv");
        assertTrue(e.err().contains("send engram, server-memory or toon"), e.err());
        CliRunner.Run replace = cli.run("import", "--from", "server-memory", "--replace", file.toString());
        assertTrue(replace.err().contains("--replace does not apply"), replace.err());
    }

    @Test
    void aBadSearchSettingStopsStartUpNamingTheVariable() {
        CliRunner cli = new CliRunner(dir, Map.of("ENGRAM_SERVER_MEMORY_SEARCH", "lots"), (config, embedding) -> {
            throw new AssertionError("no store is opened");
        });
        CliRunner.Run r = cli.run("mcp", "--profile", "server-memory");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("ENGRAM_SERVER_MEMORY_SEARCH") && r.err().contains("unbounded"), r.err());
    }
}
