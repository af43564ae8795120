package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code engram init} / {@code uninstall} when things are not as expected: a config that cannot be read, a run that
 * stops half way, a re-run with other options, a TOML file the user edited since, a linked or read-only config, a hook
 * registered by hand. Whatever init writes is recorded, and uninstall takes it out.
 */
class InstallRecoveryTest extends InstallFixture {
    private Path manifest() {
        return home.resolve(".local/share/engram/installs.json");
    }

    /** Every file under the project and the home except the manifest, by path relative to tmp. */
    private Map<String, String> files() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(tmp)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String rel = tmp.relativize(p).toString();
                if (rel.startsWith("store") || rel.contains("installs.json")) continue;
                out.put(rel, new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    // 1. a config that cannot be read refuses its agent, and what the others got is recorded

    @Test
    void anUnreadableConfigRefusesItsAgentAndWhatTheOthersGotIsRecordedForUninstall() throws IOException {
        Map<String, String> before = files();
        Path cursor = Files.createDirectories(project.resolve(".cursor")).resolve("mcp.json");
        byte[] latin1 = "{\"mcpServers\": {}, \"note\": \"caf\u00e9\"}\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(cursor, latin1);
        Path kiro = Files.createDirectories(project.resolve(".kiro/settings/mcp.json")); // a folder where the file should be
        Path gemini = Files.createDirectories(project.resolve(".gemini")).resolve("settings.json");
        byte[] utf16 = "\uFEFF{}".getBytes(StandardCharsets.UTF_16LE);
        Files.write(gemini, utf16);
        Run run = init("--agent", "claude,cursor,kiro,gemini,trae");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("cursor: refused: " + cursor + " is not UTF-8 text (line 1 holds a byte that is not UTF-8"), run.out());
        assertTrue(run.out().contains("kiro: refused: " + kiro + " is a folder, not a file. Nothing was written for kiro"), run.out());
        assertTrue(run.out().contains("gemini: refused: " + gemini + " is UTF-16 text; agents read their configs as UTF-8: save it as UTF-8"),
                run.out());
        assertTrue(Files.readString(project.resolve(".trae/mcp.json")).contains("\"engram\""), "the agents after them go on");
        assertTrue(Files.readString(project.resolve(".mcp.json")).contains("\"engram\""), run.out());
        assertEquals(latin1.length, Files.size(cursor), "left as it was");
        assertEquals(utf16.length, Files.size(gemini));
        assertTrue(Files.readString(manifest()).contains(project.resolve(".claude/settings.json").toString()), "recorded");

        Files.delete(cursor);
        Files.delete(kiro);
        Files.delete(gemini);
        Run uninstall = engram("uninstall");
        assertEquals(0, uninstall.code(), uninstall.out());
        Map<String, String> after = files();
        assertEquals(before, after, uninstall.out());
    }

    @Test
    void aFileWhereAFolderShouldBeAndAHookEventThatIsNotAListAreRefusedNotCrashed() throws IOException {
        Files.writeString(project.resolve(".claude"), "not a folder\n");
        Run file = init("--agent", "cursor,claude");
        assertEquals(1, file.code(), file.out() + file.err());
        assertTrue(file.out().contains("claude: refused: " + project.resolve(".claude") + " is a file where a folder holding "
                + project.resolve(".claude/settings.json") + " should be"), file.out());
        assertFalse(Files.exists(project.resolve(".mcp.json")), "nothing is written for a refused agent");
        assertTrue(Files.readString(manifest()).contains(project.resolve(".cursor/mcp.json").toString()), "cursor's entry is recorded");
        Files.delete(project.resolve(".claude"));

        Path settings = Files.createDirectories(project.resolve(".claude")).resolve("settings.json");
        String object = "{\"hooks\": {\"SessionStart\": {}}}\n";
        Files.writeString(settings, object);
        Run notList = init("--agent", "claude");
        assertEquals(1, notList.code(), notList.out() + notList.err());
        assertTrue(notList.out().contains("claude: refused: " + settings + " cannot take the entry: \"hooks.SessionStart\" is not an array"),
                notList.out());
        assertEquals(object, Files.readString(settings));
    }

    @Test
    void entriesAnEarlierInitWroteButNeverRecordedAreAdoptedWhenExactlyAsInitWritesThem() throws IOException {
        Map<String, String> before = files();
        Path codex = Files.createDirectories(project.resolve(".codex")).resolve("config.toml");
        Files.writeString(codex, "model = \"o3\"\n");
        Map<String, String> withCodex = files();
        assertEquals(0, init("--agent", "claude,codex,opencode", "--capture").code());
        Map<String, String> installed = files();
        Files.delete(manifest()); // as an init that stopped before saving its record left things
        Run again = init("--agent", "claude,codex,opencode", "--capture");
        assertEquals(0, again.code(), again.out());
        assertTrue(again.out().contains("claude: hook capture already in " + project.resolve(".claude/settings.json")
                + " (unchanged; now recorded, so engram uninstall takes it out)"), again.out());
        assertTrue(again.out().contains("codex: server already in " + codex + " (unchanged; now recorded"), again.out());
        assertEquals(installed, files(), "nothing rewritten");
        Run uninstall = engram("uninstall");
        assertEquals(0, uninstall.code(), uninstall.out());
        assertEquals(withCodex, files(), "taken out as if recorded at first: created files deleted, the TOML file restored\n" + uninstall.out());
        Files.delete(codex);
        assertEquals(before, files());

        // an entry of the same value but not as init writes it (another layout) may be the user's: not adopted
        String own = "{\"mcpServers\": {\"engram\": {\"command\": \"" + COMMAND + "\", \"args\": [\"mcp\", \"--profile\", \"native\"]}}}\n";
        Files.writeString(project.resolve(".mcp.json"), own);
        Run hand = init("--agent", "claude", "--no-hooks");
        assertTrue(hand.out().contains("claude: server already in " + project.resolve(".mcp.json") + " (unchanged)"), hand.out());
        engram("uninstall");
        assertEquals(own, Files.readString(project.resolve(".mcp.json")));
    }

    // 2. Codex's TOML as the user edits it after init

    @Test
    void aCommentedTableTheUserAddsAfterInitStaysAndUninstallStillTakesOutEngrams() throws IOException {
        Path codex = Files.createDirectories(project.resolve(".codex")).resolve("config.toml");
        Files.writeString(codex, "model = \"o3\"\n");
        assertEquals(0, init("--agent", "codex", "--no-hooks").code());
        String added = "\n# GitHub server: token comes from the keychain\n[mcp_servers.github]\ncommand = \"gh-mcp\"\n";
        Files.writeString(codex, Files.readString(codex) + added);
        String edited = Files.readString(codex);
        Run again = init("--agent", "codex", "--no-hooks");
        assertTrue(again.out().contains("Nothing changed"), again.out());
        assertEquals(edited, Files.readString(codex));
        Run uninstall = engram("uninstall", "--agent", "codex");
        assertTrue(uninstall.out().contains("codex: removed server from " + codex), uninstall.out());
        assertEquals("model = \"o3\"\n" + added, Files.readString(codex));

        // a file init created, the user's table after Engram's: theirs stays, without the blank line that separated them
        Files.delete(codex);
        assertEquals(0, init("--agent", "codex", "--no-hooks").code());
        Files.writeString(codex, Files.readString(codex) + added);
        assertEquals(0, engram("uninstall", "--agent", "codex").code());
        assertEquals(added.substring(1), Files.readString(codex));
    }

    @Test
    void anInlineServersTableIsRefusedAndASubtableAddedUnderEngramsKeepsItsTable() throws IOException {
        Path codex = Files.createDirectories(project.resolve(".codex")).resolve("config.toml");
        for (String inline : List.of("mcp_servers = { other = { command = \"x\" } }\n", "mcp_servers = {}\n")) {
            Files.writeString(codex, inline);
            Run run = init("--agent", "codex", "--no-hooks");
            assertEquals(1, run.code(), run.out());
            assertTrue(run.out().contains("codex: refused: " + codex + " cannot take the entry: mcp_servers is written as an inline table"),
                    run.out());
            assertEquals(inline, Files.readString(codex));
        }
        Files.delete(codex);
        assertEquals(0, init("--agent", "codex", "--no-hooks").code());
        String withEnv = Files.readString(codex) + "\n[mcp_servers.engram.env]\nTOKEN = \"x\"\n";
        Files.writeString(codex, withEnv);
        Run uninstall = engram("uninstall", "--agent", "codex");
        assertEquals(0, uninstall.code(), uninstall.out());
        assertTrue(uninstall.out().contains("codex: left [mcp_servers.engram] in " + codex + ": it was changed since engram init wrote it"
                + " ([mcp_servers.engram.env] added under it)"), uninstall.out());
        assertEquals(withEnv, Files.readString(codex));
    }

    // 3. a re-run with other options

    @Test
    void aReRunReplacesTheHooksAnEarlierInitAddedAndUninstallRestoresTheUsersFile() throws IOException {
        Path gemini = Files.createDirectories(project.resolve(".gemini")).resolve("settings.json");
        String original = "{\n  \"theme\": \"dark\"\n}\n";
        Files.writeString(gemini, original);
        assertEquals(0, engram("init", "--agent", "gemini", "--profile", "toon", "--capture", "--command", "/opt/old/engram").code());
        Run again = engram("init", "--agent", "gemini", "--profile", "native", "--command", "/opt/new/engram");
        assertEquals(0, again.code(), again.out());
        String now = Files.readString(gemini);
        assertFalse(now.contains("/opt/old/engram"), now);
        assertTrue(now.contains("/opt/new/engram hook session-start gemini --profile native"), now);
        assertTrue(again.out().contains("gemini: hook capture removed from " + gemini), again.out());
        assertEquals(0, engram("uninstall", "--agent", "gemini").code());
        assertEquals(original, Files.readString(gemini));
    }

    @Test
    void switchingProfilesBackAndForthLeavesNoEmptyContainersAfterUninstall() throws IOException {
        Map<String, String> before = files();
        for (String profile : List.of("native", "toon", "native")) {
            Run run = init("--agent", "claude,antigravity", "--profile", profile);
            assertEquals(0, run.code(), run.out());
        }
        Run uninstall = engram("uninstall");
        assertEquals(0, uninstall.code(), uninstall.out());
        assertEquals(before, files(), uninstall.out());
        Path gemini = Files.createDirectories(project.resolve(".gemini")).resolve("settings.json");
        Files.writeString(gemini, "{\"theme\": \"dark\"}");
        for (String profile : List.of("native", "toon", "native")) assertEquals(0, init("--agent", "gemini", "--capture", "--profile", profile).code());
        assertEquals(0, engram("uninstall").code());
        assertEquals("{\"theme\": \"dark\"}", Files.readString(gemini));
    }

    // 4. a linked or read-only config

    @Test
    void aLinkedConfigIsWrittenThroughTheLinkAndAReadOnlyOneIsRefused() throws IOException {
        Path dotfiles = Files.createDirectories(tmp.resolve("dotfiles")).resolve("mcp.json");
        String original = "{\n  \"mcpServers\": {}\n}\n";
        Files.writeString(dotfiles, original);
        Path link = project.resolve(".mcp.json");
        Files.createSymbolicLink(link, Path.of("../dotfiles/mcp.json"));
        assertEquals(0, init("--agent", "claude", "--no-hooks").code());
        assertTrue(Files.isSymbolicLink(link), "still a link");
        assertTrue(Files.readString(dotfiles).contains("\"engram\""));
        assertEquals(0, engram("uninstall", "--agent", "claude").code());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(original, Files.readString(dotfiles));

        Path cursor = Files.createDirectories(project.resolve(".cursor")).resolve("mcp.json");
        Files.writeString(cursor, original);
        Files.setPosixFilePermissions(cursor, java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--"));
        Run run = init("--agent", "cursor");
        assertEquals(1, run.code(), run.out());
        assertTrue(run.out().contains("cursor: refused: " + cursor + " is read-only, and engram init does not change a file you made"
                + " read-only; make it writable (chmod u+w " + cursor + ")"), run.out());
        assertEquals(original, Files.readString(cursor));
    }

    // 5. options and messages

    @Test
    void anAgentListOfNoNamesIsRefusedAndUninstallNamesTheOtherScope() throws IOException {
        Files.createDirectories(project.resolve(".cursor"));
        Run commas = init("--agent", ",");
        assertEquals(2, commas.code(), commas.out() + commas.err());
        assertTrue(commas.err().contains("--agent names no agent"), commas.err());
        assertFalse(Files.exists(project.resolve(".cursor/mcp.json")));
        Run quote = engram("init", "--agent", "cursor", "--command", "'x");
        assertEquals(2, quote.code());
        assertTrue(quote.err().contains("--command") && !quote.err().contains("--args"), quote.err());

        assertEquals(0, init("--agent", "cursor", "--scope", "global").code());
        Run local = engram("uninstall");
        assertTrue(local.out().contains("Nothing to remove: engram init added nothing here at local scope (init --scope global entries are"
                + " removed with uninstall --scope global)."), local.out());
    }

    @Test
    void aDryRunWritesNothingAtAll() throws IOException {
        Files.createDirectories(project.resolve(".cursor"));
        assertEquals(0, init("--dry-run").code());
        assertEquals(0, engram("uninstall", "--dry-run").code());
        assertEquals(0, engram("uninstall").code(), "nothing recorded: nothing to lock either");
        try (Stream<Path> all = Files.walk(tmp)) {
            List<String> written = all.map(p -> tmp.relativize(p).toString())
                    .filter(p -> !p.isEmpty() && !p.equals("home") && !p.startsWith("project")).toList();
            assertEquals(List.of(), written, "neither the store nor the record's folder (nor its lock) is created");
        }
        // nor the native libraries' copy, which Main.main makes for every other command
        assertTrue(Main.installerDryRun(new String[] {"init", "--agent", "cursor", "--dry-run"}));
        assertTrue(Main.installerDryRun(new String[] {"--store", "s", "uninstall", "--dry-run"}));
        assertFalse(Main.installerDryRun(new String[] {"init", "--agent", "cursor"}));
        assertFalse(Main.installerDryRun(new String[] {"import", "--dry-run", "x.json"}), "a dry run that reads the store needs them");
    }

    // 6. a session-start hook registered by hand

    @Test
    void aHandRegisteredHookWithTheSameCommandIsLeftAndNotAddedTwice() throws IOException {
        Path settings = Files.createDirectories(project.resolve(".claude")).resolve("settings.json");
        String own = "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \""
                + COMMAND + " hook session-start claude --profile native\", \"timeout\": 30}]}]}}\n";
        Files.writeString(settings, own);
        Run run = init("--agent", "claude");
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().contains("claude: hook session-start already in " + settings
                + " (registered by hand with the same command; left as it is)"), run.out());
        assertEquals(own, Files.readString(settings));
        assertEquals(0, engram("uninstall", "--agent", "claude").code());
        assertEquals(own, Files.readString(settings), "the user's own hook stays");
    }
}
