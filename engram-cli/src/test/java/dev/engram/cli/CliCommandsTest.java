package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import java.nio.file.Path;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliCommandsTest {
    @TempDir
    Path dir;

    private CliRunner failingStore() {
        return new CliRunner(dir, (config, embedding) -> {
            throw new StoreException("open " + config.storeDir() + ": database disk image is malformed");
        });
    }

    @Test
    void version() {
        CliRunner.Run r = failingStore().run("version");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("engram "), r.out());
    }

    @Test
    void versionAsJson() {
        CliRunner.Run r = failingStore().run("version", "--json");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("{\"engram\":\""), r.out());
        assertTrue(r.out().contains("\"java\":\""), r.out());
    }

    /** A command whose output is text for a person, or the protocol itself, refuses --json instead of ignoring it. */
    @Test
    void commandsThatPrintTextOnlyRefuseJsonBeforeDoingAnything() {
        for (String[] args : new String[][] {{"init", "--agent", "claude-code", "--json"}, {"uninstall", "--json"},
                {"mcp", "--json"}, {"serve", "--json"}, {"viewer", "--json"}, {"--json", "proxy"},
                {"proxy", "remove", "x", "--json"}, {"proxy", "add", "x", "--prefix", "x", "--command", "true", "--json"}}) {
            CliRunner.Run r = failingStore().run(args);
            String command = String.join(" ", args);
            assertEquals(2, r.exitCode(), command + ": " + r.err());
            assertTrue(r.err().startsWith("engram: --json (flag) does not apply to engram "), command + ": " + r.err());
            assertTrue(r.err().contains("leave it out"), r.err());
            assertEquals("", r.out(), command);
        }
    }

    @Test
    void userErrorsExitTwoWithTheMessageAndNoStackTrace() {
        CliRunner.Run r = failingStore().run("recall", "x", "--zone", "Bad Zone");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("engram: --zone 'Bad Zone' is not a valid zone name"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void unknownOptionsExitTwoWithAUsageHint() {
        CliRunner.Run r = failingStore().run("recall", "--colour", "red");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--colour") && r.err().contains("engram recall --help"), r.err());
    }

    @Test
    void internalFailuresExitOneWithOneLineUnlessDebug() {
        CliRunner.Run r = failingStore().run("stats");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("database disk image is malformed") && r.err().contains("--debug"), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("dev.engram."), "no stack and no class name: " + r.err());
        CliRunner.Run debug = failingStore().run("stats", "--debug");
        assertTrue(debug.err().contains("\tat "), debug.err());
    }

    /** On PostgreSQL the principals live in the store: when it cannot be opened, that is what serve says, not "no token". */
    @Test
    void serveOnAPostgresStoreThatFailsSaysSoInsteadOfAskingForATokenOnly() {
        CliRunner.Run r = failingStore().run("serve", "--store", "postgresql://postgres@127.0.0.1:1/nosuch", "--port", "0");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("database disk image is malformed"), r.err());
        assertFalse(r.err().contains("bearer token"), r.err());
        // an embedded store that fails to open, with no token configured: the missing token comes first, as before
        CliRunner.Run embedded = failingStore().run("serve", "--port", "0");
        assertEquals(2, embedded.exitCode(), embedded.err());
        assertTrue(embedded.err().contains("bearer token"), embedded.err());
    }

    @Test
    void forgetHelpStatesTheEnginesRestoreWindow() {
        String usage = new picocli.CommandLine(new ForgetSubcommand()).getUsageMessage();
        String days = dev.engram.engine.Engine.RESTORE_WINDOW.toDays() + " days";
        assertTrue(usage.contains("restored for " + days) && usage.contains("undoes it for " + days), usage);
    }

    /** Start-up builds the model of the one command named (picocli's model of all of them cost about 0.2 s). */
    @Test
    void aNamedCommandBuildsOnlyItsOwnModel() {
        java.util.function.Function<String[], java.util.Set<String>> registered =
                args -> EngramCommand.commandLine(new EngramCommand(null), args).getSubcommands().keySet();
        assertEquals(java.util.Set.of("mcp"), registered.apply(new String[] {"--store", "/tmp/s", "mcp", "--profile", "toon"}));
        assertEquals(java.util.Set.of("recall"), registered.apply(new String[] {"--zone", "stats", "--json", "recall", "stats"}));
        assertEquals(java.util.Set.of("stats"), registered.apply(new String[] {"--store=/tmp/s", "--project", "stats"}));
        assertEquals(java.util.Set.of("proxy"), registered.apply(new String[] {"proxy", "list", "--help"}));
        int all = EngramCommand.SUBCOMMANDS.size();
        assertEquals(all, registered.apply(new String[] {}).size(), "no command: the usage lists them all");
        assertEquals(all, registered.apply(new String[] {"--help", "mcp"}).size());
        assertEquals(all, registered.apply(new String[] {"-V"}).size());
        assertEquals(all, registered.apply(new String[] {"--store", "/tmp/s", "mcpp"}).size(), "a misspelt command: picocli's message");
        assertEquals(all, EngramCommand.commandLine(new EngramCommand(null)).getSubcommands().size());
    }

    /** Errors say "run 'engram recall --help' for usage": every command must answer that, without a store. */
    @Test
    void everyCommandAnswersHelpWithoutTouchingTheStore() {
        picocli.CommandLine root = EngramCommand.commandLine(new EngramCommand(null)); // read for its command tree only
        List<List<String>> paths = new java.util.ArrayList<>();
        root.getSubcommands().forEach((name, sub) -> {
            paths.add(List.of(name));
            sub.getSubcommands().keySet().forEach(child -> paths.add(List.of(name, child)));
        });
        assertTrue(paths.size() > 15, paths.toString());
        for (List<String> path : paths) {
            List<String> args = new java.util.ArrayList<>(path);
            args.add("--help");
            CliRunner.Run r = failingStore().run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), path + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: engram " + String.join(" ", path)), path + ": " + r.out());
        }
    }

    @Test
    void serveWithoutTokensRefusesAndSaysHow() {
        CliRunner.Run r = failingStore().run("serve");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("ENGRAM_TOKENS") && r.err().contains("--no-auth"), r.err());
        assertEquals(2, failingStore().run("serve", "--no-auth", "--host", "0.0.0.0").exitCode());
    }

    @Test
    void profilesListsEachProfileWithItsToolsResourcesAndPrompts() {
        CliRunner.Run r = failingStore().run("profiles");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("native (default): 9 tools, 2 resources, 1 prompt\n"), r.out());
        assertTrue(r.out().contains("  tools: remember, recall, forget,"), r.out());
        assertTrue(r.out().contains("  resources: engram://primer, engram://stats\n"), r.out());
        assertTrue(r.out().contains("server-memory: 9 tools, 1 resource, 0 prompts\n"), r.out());
        assertTrue(r.out().contains("brain: 21 tools, 0 resources, 0 prompts\n"), r.out());
        assertTrue(r.out().contains("toon: 38 tools, 4 resources, 0 prompts\n"), r.out());
        assertTrue(r.out().contains("memento: 17 tools, 4 resources, 3 prompts"), r.out());
        assertFalse(r.out().contains("planned, not built yet"), "nothing is planned any more: " + r.out());
        CliRunner.Run json = failingStore().run("profiles", "--json");
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().contains("\"name\":\"native\"") && json.out().contains("\"tool_count\":9"), json.out());
    }

    @Test
    void unknownProfileStopsStartUpBeforeServing() {
        CliRunner.Run r = failingStore().run("mcp", "--profile", "nope");
        assertEquals(2, r.exitCode());
        assertEquals("engram: --profile (flag) 'nope' is not a profile; choose one of: native, server-memory, brain, toon, memento\n", r.err());
        assertEquals("", r.out(), "nothing was served");
        CliRunner.Run serve = failingStore().run("serve", "--no-auth", "--profile", "mementos");
        assertEquals(2, serve.exitCode());
        assertTrue(serve.err().startsWith("engram: --profile (flag) 'mementos' is not a profile"), serve.err());
        CliRunner.Run env = new CliRunner(dir, Map.of("ENGRAM_PROFILE", "nope"), (config, embedding) -> {
            throw new AssertionError("no store is opened for an unknown profile");
        }).run("mcp");
        assertEquals(2, env.exitCode());
        assertTrue(env.err().startsWith("engram: ENGRAM_PROFILE (environment) 'nope' is not a profile"), env.err());
    }
}
