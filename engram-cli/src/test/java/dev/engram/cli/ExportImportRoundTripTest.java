package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.spi.MemoryStore;
import dev.engram.store.IndexCheck;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * export → import into an empty store → export gives identical lines, on the in-memory fakes.
 */
class ExportImportRoundTripTest {
    @TempDir
    Path dir;

    private static Engine engine(MutableClock clock) {
        MemoryStore store = new InMemoryMemoryStore();
        return new Engine(store, new InMemorySearchIndex(store), clock);
    }

    private CliRunner cli(Engine engine) {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    @Test
    void exportImportExportIsLossless() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        CliRunner from = cli(source);
        assertEquals(0, from.run("remember", "Redis calls time out because the pool has 8 connections",
                "--type", "error", "--key", "redis-timeout", "--tags", "redis,perf").exitCode());
        assertEquals(0, from.run("remember", "Raise the Redis pool to 64 connections", "--type", "decision",
                "--key", "redis-pool", "--link", "resolved_by:redis-timeout", "--ttl", "30d", "--importance", "high",
                "--file", "src/redis.ts", "--path-scope", "src/**").exitCode());
        assertEquals(0, from.run("remember", "Team prefers tabs", "--zone", "team", "--type", "preference").exitCode());
        source.amend(new AmendCommand("redis-pool", "default", "Raise the Redis pool to 128 connections",
                null, null));
        Path first = dir.resolve("first.jsonl");
        CliRunner.Run exported = from.run("export", "--out", first.toString());
        assertEquals(0, exported.exitCode(), exported.err());
        List<String> lines = Files.readAllLines(first);
        assertEquals(3, lines.size());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"versions\":[{")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"type\":\"resolved_by\"")), lines.toString());

        Engine empty = engine(clock);
        CliRunner to = cli(empty);
        CliRunner.Run imported = to.run("import", first.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        Path second = dir.resolve("second.jsonl");
        assertEquals(0, to.run("export", "--out", second.toString()).exitCode());
        assertEquals(lines, Files.readAllLines(second));
    }

    @Test
    void aBadLineNamesItsNumber() throws Exception {
        Engine engine = engine(new MutableClock(Instant.parse("2026-11-29T10:00:00Z")));
        Path file = Files.writeString(dir.resolve("bad.jsonl"), "\n{\"id\":1}\n");
        CliRunner.Run r = cli(engine).run("import", file.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("bad.jsonl line 2: id must be a string, got 1; nothing was imported"), r.err());
    }
}
