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
    }

    /** As brain-tools' json-to-es: a line that cannot be read is skipped, the rest imported; the summary names each one. */
    @Test
    void aMalformedLineIsSkippedAndNamedAndTheRestImported() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, String.join("\n", "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"t\"}", "{oops",
                "{\"type\":\"note\"}", "{\"type\":\"entity\",\"name\":\"b\",\"entityType\":\"t\"}"));
        CliRunner.Run run = cli().run("import", "--from", "brain", bad.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("imported: 2 new entities") && run.err().contains("; 2 line(s) skipped (line 2: not JSON (")
                && run.err().contains("; line 3: \"type\" is \"note\", neither \"entity\" nor \"relation\") from " + bad), run.err());
        EngramConfig config = new ConfigLoader(Map.of("ENGRAM_HOME", dir.resolve("store").toString()), dir, dir, "Linux")
                .load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            assertTrue(opened.engine().entities().find("default", "a").isPresent());
            assertTrue(opened.engine().entities().find("default", "b").isPresent(), "the line after the bad ones too");
        }
    }

    @Test
    void aSelfRelationIsSkippedNamingItsLineAndTheDryRunCountsAsTheRealRun() throws Exception {
        Path file = dir.resolve("b2.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"type\":\"entity\",\"name\":\"P\",\"entityType\":\"project\"}",
                "{\"type\":\"entity\",\"name\":\"Q\",\"entityType\":\"project\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"Q\",\"relationType\":\"uses\"}",
                "{\"type\":\"relation\",\"from\":\"Q\",\"to\":\"Q\",\"relationType\":\"loops\"}"));
        CliRunner.Run dry = cli().run("import", "--from", "brain", "--dry-run", file.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        String skipped = "; 1 line(s) skipped (line 4: 'Q' -loops-> itself; Engram keeps relations between two different"
                + " entities (record it as an observation instead)) from ";
        assertTrue(dry.err().contains("would import: 2 new entities, 0 existing, 0 observations, 1 relations" + skipped), dry.err());
        CliRunner.Run run = cli().run("import", "--from", "brain", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("imported: 2 new entities, 0 existing, 0 observations, 1 relations" + skipped), run.err());
    }
}
