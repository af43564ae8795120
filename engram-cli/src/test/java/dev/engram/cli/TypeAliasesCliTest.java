package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.memory.MemoryType;
import dev.engram.spi.MemoryStore;
import dev.engram.store.IndexCheck;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: the type aliases left the core model; the CLI and JSONL import accept them as before. */
class TypeAliasesCliTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final Engine engine = engine();

    private Engine engine() {
        MemoryStore store = new InMemoryMemoryStore();
        return new Engine(store, new InMemorySearchIndex(store), clock);
    }

    private CliRunner cli() {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    private List<ExportRecord> stored() {
        List<ExportRecord> records = new ArrayList<>();
        engine.export(null, records::add);
        return records;
    }

    @Test
    void rememberAndRecallAcceptAnAlias() {
        CliRunner.Run saved = cli().run("remember", "The build fails when JAVA_HOME points at a JRE", "--type", "bug",
                "--key", "jre-build");
        assertEquals(0, saved.exitCode(), saved.err());
        assertTrue(saved.out().startsWith("created error/jre-build"), saved.out());
        assertEquals(0, cli().run("remember", "The build uses Maven", "--key", "maven-build").exitCode());
        CliRunner.Run found = cli().run("recall", "build", "--types", "bug");
        assertEquals(0, found.exitCode(), found.err());
        assertTrue(found.out().contains("error/jre-build") && !found.out().contains("maven-build"), found.out());
        CliRunner.Run refused = cli().run("remember", "Something", "--type", "thought");
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("'thought' is not a known type"), refused.err());
    }

    @Test
    void aJsonlLineWithAnAliasImportsAsItsType() throws Exception {
        // an exported line, edited by hand to say "bug": the writer only ever writes wire names
        Engine source = engine();
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        CliRunner from = new CliRunner(dir, (config, embedding) -> new Main.OpenEngine(source, () -> ok, () -> { }));
        assertEquals(0, from.run("remember", "The build fails on a JRE", "--key", "jre-build").exitCode());
        Path exported = dir.resolve("fact.jsonl");
        assertEquals(0, from.run("export", "--out", exported.toString()).exitCode());
        String line = Files.readString(exported);
        assertTrue(line.contains("\"type\":\"fact\""), line);
        Path file = Files.writeString(dir.resolve("alias.jsonl"), line.replace("\"type\":\"fact\"", "\"type\":\"bug\""));
        CliRunner.Run r = cli().run("import", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(MemoryType.ERROR, stored().get(0).memory().type());
    }
}
