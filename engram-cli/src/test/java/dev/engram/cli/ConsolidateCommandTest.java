package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.MemoryType;
import dev.engram.rank.NumericImportance;
import dev.engram.spi.MemoryStore;
import dev.engram.store.IndexCheck;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** engram consolidate: the maintenance cycle from the command line, with the profile's policy. */
class ConsolidateCommandTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-01T10:00:00Z"));
    private final MemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);

    private CliRunner cli(Map<String, String> env) {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, env, (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    private String remember(String content, double importance) {
        return engine.remember(RememberCommand.builder(content).type(MemoryType.PROCEDURE)
                .importance(NumericImportance.level(importance)).relevance(NumericImportance.toRelevance(importance)).build())
                .memory().id();
    }

    @Test
    void dryRunThenRunWithTheMementoPolicy() {
        String id = remember("Deploy with make release then tag", 0.7);
        clock.advance(Duration.ofDays(30));
        CliRunner.Run dry = cli(Map.of()).run("consolidate", "--dry-run", "--profile", "memento");
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().startsWith("Dry run (nothing written): memento policy, every zone, 1 change(s) would be made"), dry.out());
        assertTrue(dry.out().contains("decayed " + id + ": importance 0.700 -> 0.350"), dry.out());
        assertEquals(0.7, NumericImportance.of(store.get(id).orElseThrow()), 1e-9, "a dry run writes nothing");

        CliRunner.Run run = cli(Map.of()).run("consolidate", "--profile", "memento", "--zone", "default", "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("\"policy\":\"memento\"") && run.out().contains("\"zone\":\"default\""), run.out());
        assertEquals(0.35, NumericImportance.of(store.get(id).orElseThrow()), 0.001);
    }

    @Test
    void theNativeProfileRunsTheDefaultPolicyWhichWritesNoDecay() {
        String id = remember("Deploy with make release then tag", 0.7);
        clock.advance(Duration.ofDays(30));
        CliRunner.Run run = cli(Map.of()).run("consolidate");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("Maintenance: default policy, every zone, 0 change(s)"), run.out());
        assertEquals(0.7, NumericImportance.of(store.get(id).orElseThrow()), 1e-9);
    }

    @Test
    void aBadIntervalOrProfileIsAConfigErrorNamingTheVariable() {
        CliRunner.Run bad = cli(Map.of("ENGRAM_MAINTENANCE_INTERVAL", "soon")).run("serve", "--no-auth");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("ENGRAM_MAINTENANCE_INTERVAL") && bad.err().contains("6h, 30m, 1d"), bad.err());
        CliRunner.Run unknown = cli(Map.of()).run("consolidate", "--profile", "nope");
        assertEquals(2, unknown.exitCode(), unknown.err());
    }
}
