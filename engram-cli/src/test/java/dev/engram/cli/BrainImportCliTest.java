package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram import --from brain FILE} on a real store. */
class BrainImportCliTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, Map.of("ENGRAM_HOME", dir.resolve("store").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    @Test
    void importsAJsonlExportDryRunFirst() throws Exception {
        Path file = dir.resolve("brain.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"type\":\"entity\",\"name\":\"iaptic-server\",\"entityType\":\"Project\",\"zone\":\"Work\"}",
                "{\"type\":\"entity\",\"name\":\"iaptic-server: uses TypeScript\",\"entityType\":\"observation\",\"zone\":\"Work\"}",
                "{\"type\":\"relation\",\"from\":\"iaptic-server: uses TypeScript\",\"fromZone\":\"Work\",\"to\":\"iaptic-server\",\"toZone\":\"Work\",\"relationType\":\"is_observation_of\"}",
                "{\"type\":\"entity\",\"name\":\"김민수\",\"entityType\":\"Person\"}",
                "{\"type\":\"relation\",\"from\":\"김민수\",\"fromZone\":\"default\",\"to\":\"iaptic-server\",\"toZone\":\"Work\",\"relationType\":\"works_on\"}"));
        CliRunner.Run dry = cli().run("import", "--from", "brain", "--dry-run", file.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.err().startsWith("would import: 2 new entities"), dry.err());
        CliRunner.Run run = cli().run("import", "--from", "brain", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("imported: 2 new entities, 0 existing, 1 observations, 1 relations, 1 zones created"), run.err());
        EngramConfig config = new ConfigLoader(Map.of("ENGRAM_HOME", dir.resolve("store").toString()), dir, dir, "Linux")
                .load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            assertEquals(List.of("uses TypeScript"), opened.engine().entities().find("work", "iaptic-server").orElseThrow().observationTexts());
            assertEquals(1, opened.engine().entities().read("default").relations().size());
        }
        assertTrue(cli().run("import", "--from", "brain", "--replace", file.toString()).err().contains("--replace does not apply"));
        Files.writeString(dir.resolve("bad.jsonl"), "{\"type\":\"entity\",\"name\":\"a\"}\n{oops");
        CliRunner.Run bad = cli().run("import", "--from", "brain", dir.resolve("bad.jsonl").toString());
        assertEquals(ErrorReporter.USER_ERROR, bad.exitCode());
        assertTrue(bad.err().contains("line 2") && bad.err().contains("nothing was imported"), bad.err());
    }
}
