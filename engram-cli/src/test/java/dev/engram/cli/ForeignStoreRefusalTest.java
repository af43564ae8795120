package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command that touches the store refuses a store directory holding another program's
 * {@code engram.db}, with the real store opener behind it, and leaves the file and its directory as
 * they were. {@code mcp} and {@code proxy}, which take over stdout, are run as processes in ForeignStoreIT.
 */
class ForeignStoreRefusalTest {
    @TempDir
    Path dir;

    /** Arguments that would make each command run to completion on a store of ours. */
    private static final Map<String, List<String>> COMMANDS = Map.ofEntries(
            Map.entry("remember", List.of("remember", "Use WAL for the store.")),
            Map.entry("recall", List.of("recall", "WAL")),
            Map.entry("forget", List.of("forget", "m_aaaaaaaaab")),
            Map.entry("stats", List.of("stats")),
            Map.entry("consolidate", List.of("consolidate")),
            Map.entry("export", List.of("export")),
            Map.entry("import", List.of("import", "IMPORT_FILE")),
            Map.entry("restore", List.of("restore", "IMPORT_FILE")),
            Map.entry("doctor", List.of("doctor")),
            Map.entry("reindex", List.of("reindex")),
            Map.entry("serve", List.of("serve", "--no-auth", "--port", "0")),
            Map.entry("viewer", List.of("viewer", "--port", "0")),
            Map.entry("proxy add", List.of("proxy", "add", "fs", "--command", "true", "--prefix", "fs")),
            Map.entry("proxy list", List.of("proxy", "list")),
            Map.entry("proxy config", List.of("proxy", "config", "validate")),
            Map.entry("proxy remove", List.of("proxy", "remove", "fs")),
            Map.entry("proxy stats", List.of("proxy", "stats")),
            Map.entry("proxy health", List.of("proxy", "health")),
            Map.entry("proxy tune", List.of("proxy", "tune")),
            Map.entry("proxy proposals", List.of("proxy", "proposals")),
            Map.entry("proxy doctor", List.of("proxy", "doctor")),
            Map.entry("proxy import", List.of("proxy", "import", "--from", "memtomem", "IMPORT_FILE", "--yes")),
            Map.entry("proxy surfacing", List.of("proxy", "surfacing", "off")),
            Map.entry("tokens add", List.of("tokens", "add", "ci-bot", "--zone", "team:read")),
            Map.entry("tokens list", List.of("tokens", "list")),
            Map.entry("tokens revoke", List.of("tokens", "revoke", "ci-bot")),
            Map.entry("hook feedback", List.of("hook", "feedback", "0123456789ab", "helpful")),
            // init registers a server on that store: it refuses before it writes any agent's config
            Map.entry("init", List.of("init", "--agent", "cursor", "--command", "/usr/bin/engram")));
    /** Commands that never touch a store (hook capture writes toon's capture log only), and the two stdio servers tested as processes. */
    private static final List<String> NOT_HERE = List.of("version", "profiles", "mcp", "proxy", "tokens", "hook capture",
            "uninstall", // uninstall edits agents' configs by its own record only
            "hook daemon"); // its warm-up loads the config, which refuses a foreign store; each call it runs refuses as above
    /** The hooks, which must never fail the agent: they report the refusal on stderr and exit 0 ({@link #hooksReportTheRefusalAndExitZero}). */
    private static final List<String> HOOKS = List.of("hook", "hook prompt", "hook stop", "hook post-tool", "hook session-start");

    private List<String> listing(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyCommandRefusesAndChangesNothing() throws Exception {
        Path store = dir.resolve("shared");
        Path db = ForeignDatabases.writeOtherEngram(store);
        Files.writeString(dir.resolve("memories.jsonl"), "");
        String before = ForeignDatabases.sha256(db);
        List<String> filesBefore = listing(store);
        CliRunner cli = new CliRunner(dir, (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));

        for (Map.Entry<String, List<String>> command : COMMANDS.entrySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("--store", store.toString()));
            for (String a : command.getValue()) args.add(a.equals("IMPORT_FILE") ? dir.resolve("memories.jsonl").toString() : a);
            CliRunner.Run r = cli.run(args.toArray(String[]::new));
            assertEquals(2, r.exitCode(), command.getKey() + ": " + r.err());
            assertTrue(r.err().startsWith("engram: " + db + " is not an Engram database:"), command.getKey() + ": " + r.err());
            assertTrue(r.err().contains("Gentleman-Programming/engram") && r.err().contains("--store DIR or ENGRAM_HOME=DIR"),
                    command.getKey() + ": " + r.err());
            assertEquals("", r.out(), command.getKey());
            assertEquals(before, ForeignDatabases.sha256(db), command.getKey() + " changed the file");
            assertEquals(filesBefore, listing(store), command.getKey() + " created files beside it");
        }
    }

    @Test
    void theListAboveCoversEveryCommand() {
        CommandLine root = EngramCommand.commandLine(new EngramCommand(new Main(Map.of(), dir, dir, "Linux", System.out, System.err, null)));
        TreeSet<String> all = new TreeSet<>();
        root.getSubcommands().forEach((name, sub) -> {
            all.add(name);
            sub.getSubcommands().keySet().forEach(child -> all.add(name + " " + child));
        });
        all.removeAll(NOT_HERE);
        HOOKS.forEach(all::remove);
        assertEquals(all, new TreeSet<>(COMMANDS.keySet()), "a new command needs an entry here");
    }

    @Test
    void hooksReportTheRefusalAndExitZero() throws Exception {
        Path store = dir.resolve("shared");
        Path db = ForeignDatabases.writeOtherEngram(store);
        String before = ForeignDatabases.sha256(db);
        List<String> filesBefore = listing(store);
        CliRunner cli = new CliRunner(dir, (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
        HookSubcommand.stdin = new java.io.ByteArrayInputStream(
                "{\"prompt\":\"how do we deploy the billing service again\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try {
            CliRunner.Run r = cli.run("--store", store.toString(), "hook", "prompt");
            assertEquals(0, r.exitCode(), r.err());
            assertEquals("", r.out());
            assertTrue(r.err().contains(db + " is not an Engram database"), r.err());
        } finally {
            HookSubcommand.stdin = System.in;
        }
        HookSubcommand.stdin = new java.io.ByteArrayInputStream(("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\","
                + "\"tool_input\":{\"file_path\":\"src/billing/deploy.py\"},\"tool_response\":\"" + "x".repeat(6000) + "\"}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try {
            CliRunner.Run r = cli.run("--store", store.toString(), "hook", "post-tool");
            assertEquals(0, r.exitCode(), r.err());
            assertEquals("", r.out());
            assertTrue(r.err().contains(db + " is not an Engram database"), r.err());
        } finally {
            HookSubcommand.stdin = System.in;
        }
        HookSubcommand.stdin = new java.io.ByteArrayInputStream("{\"session_id\":\"s\",\"source\":\"startup\"}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try {
            CliRunner.Run r = cli.run("--store", store.toString(), "hook", "session-start", "claude");
            assertEquals(0, r.exitCode(), r.err());
            assertEquals("", r.out());
            assertTrue(r.err().startsWith("engram hook session-start: " + db + " is not an Engram database"), r.err());
        } finally {
            HookSubcommand.stdin = System.in;
        }
        assertEquals(before, ForeignDatabases.sha256(db));
        assertEquals(filesBefore, listing(store));
    }
}
