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
        assertTrue(run.err().contains("1 file summary kept for memory_summary"), run.err());
        String out = cli().run("export", "--format", "toon").out();
        assertTrue(out.endsWith("summaries:\n  src/big.ts: Router\n"), "the summaries go out as they came in: " + out);
        assertTrue(out.startsWith("version: 1\nentries[3|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|"), out);
        assertTrue(out.contains("  abc12345|decision|use-zod|Use Zod \\| not Joi\\nfor validation|src/types.ts|types;validation|2026-07-25||4|"), out);
        assertTrue(out.contains("|bug|date-bug|"), out);
        assertTrue(out.contains("aaa11111|knowledge|old-fact|Old|||2026-01-01||0||0.50|1.00||0||agent|obsolete|"), out);
        CliRunner.Run again = cli().run("import", "--from", "toon", memory.resolve("data.toon").toString());
        assertEquals(0, again.exitCode(), "the data.toon file names its folder: " + again.err());
        assertTrue(again.err().contains("unchanged 3"), again.err());
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

    @Test
    void thePerProjectStoreIsGitIgnoredWhenCreated() throws Exception {
        Path project = Files.createDirectories(dir.resolve("proj"));
        ConfigLoader loader = new ConfigLoader(Map.of(), project, dir.resolve("home"), "Linux");
        EngramConfig config = loader.perProject(loader.load(new GlobalOptions()));
        Path ignore = config.storeDir().resolve(".gitignore");
        assertTrue(Files.readString(ignore).lines().anyMatch("*"::equals), Files.readString(ignore));
        Files.writeString(ignore, "mine\n");
        loader.perProject(loader.load(new GlobalOptions()));
        assertEquals("mine\n", Files.readString(ignore), "an existing store folder is left as it is");
    }

    @Test
    void exportToAFileNeverReplacesToonsDataOrAFileThatIsNotToon() throws Exception {
        Path data = Files.createDirectories(dir.resolve("p/.toon-memory/memory")).resolve("data.toon");
        Files.writeString(data, "version: 1\n[0|]\n");
        CliRunner.Run intoToon = cli().run("export", "--format", "toon", "--out", data.toString());
        assertEquals(ErrorReporter.USER_ERROR, intoToon.exitCode(), intoToon.err());
        assertTrue(intoToon.err().contains("inside a .toon-memory folder"), intoToon.err());
        assertEquals("version: 1\n[0|]\n", Files.readString(data));
        Path mine = dir.resolve("notes.txt");
        Files.writeString(mine, "my notes\n");
        CliRunner.Run over = cli().run("export", "--format", "toon", "--out", mine.toString());
        assertEquals(ErrorReporter.USER_ERROR, over.exitCode(), over.err());
        assertTrue(over.err().contains("not a TOON memory document"), over.err());
        assertEquals("my notes\n", Files.readString(mine));
        Path out = dir.resolve("out.toon");
        assertEquals(0, cli().run("export", "--format", "toon", "--out", out.toString()).exitCode());
        assertEquals(0, cli().run("export", "--format", "toon", "--out", out.toString()).exitCode());
        assertTrue(Files.readString(out).startsWith("version: 1\nentries[0|]"));
        assertTrue(Files.exists(dir.resolve("out.toon.bak")), "the previous file is kept");
        Path global = dir.resolve("p/.toon-memory/memory/global.toon");
        assertEquals(0, cli().run("export", "--format", "toon", "--out", global.toString()).exitCode(), "toon's global file may be written");
        assertTrue(Files.readString(global).startsWith("version: 1\n"));
    }

    @Test
    void importOfAFileThatIsNotUtf8SaysSo() throws Exception {
        Path memory = Files.createDirectories(dir.resolve("latin"));
        Files.write(memory.resolve("data.toon"), "version: 1\n[1|]\n  a1|decision|k|caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        CliRunner.Run run = cli().run("import", "--from", "toon", memory.toString());
        assertEquals(ErrorReporter.USER_ERROR, run.exitCode(), run.err());
        assertTrue(run.err().contains("data.toon is not UTF-8 (byte 35)") && !run.err().contains("MalformedInput"), run.err());
    }
}
