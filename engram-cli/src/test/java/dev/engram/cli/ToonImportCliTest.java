package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram import --from toon DIR} and {@code engram export --format toon} on a real store; the toon profile's per-project store. */
class ToonImportCliTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, Map.of("ENGRAM_HOME", dir.resolve("store").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    @Test
    void importsAToonFolderAndExportsItBack() throws Exception {
        Path memory = Files.createDirectories(dir.resolve("project").resolve(".toon-memory").resolve("memory"));
        Files.writeString(memory.resolve("data.toon"), String.join("\n",
                "version: 1",
                "entries[2|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence}:",
                "  abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|src/types.ts|types;validation|2026-07-25||4|ghost-key|0.70|1.0",
                "  def67890|bug|date-bug|Dates coerce to epoch||dates|2026-07-20||0||0.50|1.0",
                "summaries:",
                "  src/big.ts: Router",
                ""));
        Files.writeString(memory.resolve("archive.toon"), "version: 1\narchived[1|]{id|category|key|content}:\n  aaa11111|knowledge|old-fact|Old|||2026-01-01||0||0.5|1.0\n");
        CliRunner.Run dry = cli().run("import", "--from", "toon", "--dry-run", dir.resolve("project").toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.err().contains("ghost-key") && dry.err().contains("dropped"), "an unresolved link is reported: " + dry.err());
        assertTrue(cli().run("export", "--format", "toon").out().contains("entries[0|]"), "a dry run writes nothing");
        CliRunner.Run run = cli().run("import", "--from", "toon", dir.resolve("project").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("imported 3 toon-memory entries"), run.err());
        assertTrue(run.err().contains("1 file summaries were not imported"), run.err());
        String out = cli().run("export", "--format", "toon").out();
        assertTrue(out.startsWith("version: 1\nentries[3|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|"), out);
        assertTrue(out.contains("  abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|src/types.ts|types;validation|2026-07-25||4|"), out);
        assertTrue(out.contains("|bug|date-bug|"), out);
        assertTrue(out.contains("aaa11111|knowledge|old-fact|Old|||2026-01-01||0||0.50|1.00||0||agent|obsolete|"), out);
        CliRunner.Run missing = cli().run("import", "--from", "toon", dir.resolve("nowhere").toString());
        assertEquals(ErrorReporter.USER_ERROR, missing.exitCode());
        assertTrue(missing.err().contains("no toon-memory data in"), missing.err());
        assertTrue(cli().run("import", "--from", "toon", "--replace", dir.resolve("project").toString()).err().contains("--replace does not apply"));
    }

    @Test
    void theToonProfileDefaultsToAStoreInTheProject() {
        Path project = dir.resolve("repo");
        ConfigLoader loader = new ConfigLoader(Map.of(), project, dir.resolve("home"), "Linux");
        EngramConfig config = loader.perProject(loader.load(new GlobalOptions()));
        assertEquals(project.toAbsolutePath().resolve(".engram-store"), config.storeDir());
        assertEquals(StoreLocation.Source.PROJECT, config.store().source());
        ConfigLoader named = new ConfigLoader(Map.of("ENGRAM_HOME", dir.resolve("mine").toString()), project, dir.resolve("home"), "Linux");
        assertEquals(dir.resolve("mine"), named.perProject(named.load(new GlobalOptions())).storeDir(), "a named store wins");
        assertEquals(dir.resolve("home").resolve(".toon-memory").resolve("memory").resolve("global.toon"), loader.toonGlobalFile());
        assertEquals(dir.resolve("g.toon"), new ConfigLoader(Map.of("TOON_MEMORY_GLOBAL_FILE", dir.resolve("g.toon").toString()),
                project, dir.resolve("home"), "Linux").toonGlobalFile());
    }
}
