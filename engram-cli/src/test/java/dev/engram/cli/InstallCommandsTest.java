package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.cli.install.Agent;
import dev.engram.cli.install.Agents;
import dev.engram.cli.install.JsonDocument;
import dev.engram.cli.install.Scope;
import dev.engram.cli.install.TomlTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code engram init} / {@code engram uninstall} in-process against a temporary home and project: every
 * agent's file matches its golden (src/test/resources/install), a second run changes nothing, existing
 * configs keep everything else, an unreadable one is refused untouched, uninstall restores the bytes.
 * Regenerate the goldens with -Dengram.golden.update=true after a deliberate format change.
 */
class InstallCommandsTest extends InstallFixture {
    /** Every file under the project and the home except the manifest, by path relative to tmp. */
    private Map<String, String> files() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(tmp)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String rel = tmp.relativize(p).toString();
                if (rel.startsWith("store") || rel.contains("installs.json")) continue; // the manifest and its lock
                out.put(rel, Files.readString(p));
            }
        }
        return out;
    }

    /** Every folder under the project and the home, except the store's and the manifest's. */
    private java.util.Set<String> folders() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(Files::isDirectory).map(p -> tmp.relativize(p).toString())
                    .filter(rel -> !rel.startsWith("store") && !rel.startsWith("home/.local"))
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    static Stream<Arguments> agentsAndScopes() {
        List<Arguments> out = new ArrayList<>();
        Agent.Places any = new Agent.Places(Path.of("/p"), Path.of("/h"), "Linux", Map.of());
        for (Agent a : Agents.ALL) {
            for (Scope s : Scope.values()) if (a.file(s, any) != null) out.add(Arguments.of(a.name(), s.key()));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("agentsAndScopes")
    void freshInstallWritesTheGoldenThenChangesNothingAndUninstallLeavesNothing(String agent, String scope) throws IOException {
        Map<String, String> before = files();
        java.util.Set<String> foldersBefore = folders();
        Run first = init("--agent", agent, "--scope", scope, "--capture");
        assertEquals(0, first.code(), first.out() + first.err());
        Map<String, String> written = files();
        assertFalse(written.equals(before), "init wrote nothing for " + agent);
        for (Map.Entry<String, String> e : written.entrySet()) {
            String rel = e.getKey();
            String golden = "install/" + agent + "-" + scope + "/" + rel.replaceFirst("^(home|project)/", "$1_").replace('/', '_');
            Path goldenFile = Path.of("src/test/resources").resolve(golden);
            if (Boolean.getBoolean("engram.golden.update")) {
                Files.createDirectories(goldenFile.getParent());
                Files.writeString(goldenFile, e.getValue());
            }
            assertTrue(Files.exists(goldenFile), "no golden " + golden + " for\n" + e.getValue());
            assertEquals(Files.readString(goldenFile), e.getValue(), golden);
            assertParses(rel, e.getValue());
        }
        Run second = init("--agent", agent, "--scope", scope, "--capture");
        assertEquals(0, second.code(), second.out());
        assertTrue(second.out().contains("Nothing changed"), second.out());
        assertEquals(written, files(), "a second run must leave every file byte for byte");

        Run removed = engram("uninstall", "--agent", agent, "--scope", scope);
        assertEquals(0, removed.code(), removed.out());
        assertEquals(before, files(), "uninstall must remove every file init created\n" + removed.out());
        assertEquals(foldersBefore, folders(), "and the folders it created for them");
    }

    @Test
    void postToolIsOptInForClaudeAndCodexSaidForOthersAndUninstalledLikeTheRest() throws IOException {
        Map<String, String> before = files();
        Run claude = init("--agent", "claude", "--scope", "local", "--post-tool", "--zone", "work");
        assertEquals(0, claude.code(), claude.out() + claude.err());
        String settings = files().get("project/.claude/settings.json");
        assertTrue(settings.contains("\"PostToolUse\"") && settings.contains("hook post-tool --host claude --zone work"), settings);
        assertTrue(settings.contains("\"SessionStart\""), "the other hooks still come with it: " + settings);
        assertParses("project/.claude/settings.json", settings);
        assertTrue(init("--agent", "claude", "--scope", "local", "--post-tool", "--zone", "work").out().contains("Nothing changed"));
        Run codex = init("--agent", "codex", "--scope", "local", "--post-tool");
        assertEquals(0, codex.code(), codex.out() + codex.err());
        assertTrue(files().get("project/.codex/hooks.json").contains("hook post-tool --host codex"), files().toString());
        Run gemini = init("--agent", "gemini", "--scope", "local", "--post-tool");
        assertEquals(0, gemini.code(), gemini.out() + gemini.err());
        assertTrue(gemini.out().contains("gemini: no post-tool hook registered"), gemini.out());
        assertFalse(files().get("project/.gemini/settings.json").contains("post-tool"));
        assertFalse(init("--agent", "claude", "--scope", "global").out().contains("post-tool"), "never without --post-tool");
        Run refused = init("--agent", "claude", "--post-tool", "--no-hooks");
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains("--post-tool registers a hook; it cannot go with --no-hooks"), refused.err());
        for (String agent : List.of("claude", "codex", "gemini")) {
            for (String scope : List.of("local", "global")) assertEquals(0, engram("uninstall", "--agent", agent, "--scope", scope).code());
        }
        assertEquals(before, files(), "uninstall removes the post-tool hook with the rest");
    }

    private static void assertParses(String rel, String text) {
        try {
            if (rel.endsWith(".toml")) TomlTables.scan(text);
            else if (rel.endsWith(".yaml")) yaml(text);
            else if (rel.endsWith(".js")) assertTrue(text.startsWith("// Engram's OpenCode plugin, written by `engram init`"), text);
            else {
                JsonDocument.parse(text, false); // a fresh file is plain JSON, whatever its agent allows
                dev.engram.mcp.json.JsonText.standard().readObject(text); // and an independent parser agrees
            }
        } catch (JsonDocument.SyntaxError e) {
            throw new AssertionError(rel + " does not parse: " + e.getMessage() + "\n" + text);
        }
    }

    /** A YAML file read by a YAML 1.2 parser, duplicate keys refused as Goose's serde_yaml refuses them. */
    static Object yaml(String text) {
        return new org.snakeyaml.engine.v2.api.Load(org.snakeyaml.engine.v2.api.LoadSettings.builder().setAllowDuplicateKeys(false).build())
                .loadFromString(text);
    }

    static Stream<Arguments> existingConfigs() {
        return Stream.of(
                Arguments.of("claude", "project/.mcp.json",
                        "{\n    \"mcpServers\": {\n        \"github\": {\"command\": \"gh-mcp\", \"args\": [], \"env\": {\"TOKEN\": \"x\"}}\n    },\n"
                                + "    \"unknownKey\": [1, 2.50, true, null]\n}\n"),
                Arguments.of("zed", "project/.zed/settings.json",
                        "// Zed settings\n{\n  \"theme\": \"One Dark\", // the theme\n  /* servers */\n  \"context_servers\": {\n"
                                + "    \"other\": {\"command\": \"other\"},\n  },\n}\n"),
                Arguments.of("vscode", "project/.vscode/mcp.json", "{\n\t\"servers\": {}\n}"),
                Arguments.of("codex", "project/.codex/config.toml",
                        "# Codex\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"other\"\nargs = [\n  \"a\",\n]\n\n[profiles.fast]\nmodel = 'o4-mini'"),
                Arguments.of("gemini", "project/.gemini/settings.json",
                        "{\"theme\":\"dark\",\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo hi\"}]}]}}"),
                Arguments.of("opencode", "project/opencode.json", "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {}\n}\n"),
                Arguments.of("grok", "project/.grok/config.toml",
                        "# shared with the team\n[mcp_servers.linear]\nurl = \"https://mcp.linear.app/mcp\"\n\n[permission]\nallow = [\"Read\"]\n"),
                Arguments.of("trae", "project/.trae/mcp.json", "{\"mcpServers\":{\"figma\":{\"url\":\"https://example.com/mcp\"}}}"),
                // Antigravity's hooks.json holds named sets of hooks: toon-memory's own stays beside Engram's
                Arguments.of("antigravity", "project/.agents/hooks.json", "{\n  \"toon-memory\": {\n    \"PreInvocation\": [{\"type\": \"command\","
                        + " \"command\": \"/p/.toon-memory/hooks/session-start-antigravity.sh\"}],\n    \"PostToolUse\": [{\"matcher\": \"*\","
                        + " \"hooks\": [{\"type\": \"command\", \"command\": \"/p/.toon-memory/hooks/capture-antigravity.sh\"}]}]\n  }\n}\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("existingConfigs")
    void mergingKeepsEverythingElseAndUninstallRestoresTheBytes(String agent, String rel, String original) throws IOException {
        Path file = tmp.resolve(rel);
        Files.createDirectories(file.getParent());
        Files.writeString(file, original);
        Run run = init("--agent", agent);
        assertEquals(0, run.code(), run.out() + run.err());
        String merged = Files.readString(file);
        assertTrue(merged.contains("\"engram\"") || merged.contains("[mcp_servers.engram]"), merged);
        if (rel.endsWith(".toml")) {
            assertTrue(merged.startsWith(original), "the table is appended, the rest kept:\n" + merged);
        } else {
            // every member and element of the original is still there with its value; only engram's were added
            assertTrue(contained(parse(original), parse(merged)), merged);
        }
        assertParsesAs(rel, agent, merged);
        Run again = init("--agent", agent);
        assertTrue(again.out().contains("Nothing changed"), again.out());
        assertEquals(merged, Files.readString(file));

        Run removed = engram("uninstall", "--agent", agent);
        assertEquals(0, removed.code(), removed.out());
        assertEquals(original, Files.readString(file), "uninstall must restore the original byte for byte");
    }

    private static Object parse(String text) {
        try {
            return JsonDocument.parse(text, true).value();
        } catch (JsonDocument.SyntaxError e) {
            throw new AssertionError(e.getMessage() + "\n" + text);
        }
    }

    /** Whether {@code a} is inside {@code b}: the same scalars, every key of a map, a list as a prefix. */
    private static boolean contained(Object a, Object b) {
        if (a instanceof Map<?, ?> x) {
            if (!(b instanceof Map<?, ?> y)) return false;
            for (Map.Entry<?, ?> e : x.entrySet()) if (!y.containsKey(e.getKey()) || !contained(e.getValue(), y.get(e.getKey()))) return false;
            return true;
        }
        if (a instanceof List<?> x) {
            if (!(b instanceof List<?> y) || y.size() < x.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!contained(x.get(i), y.get(i))) return false;
            return true;
        }
        return JsonDocument.same(a, b);
    }

    private static void assertParsesAs(String rel, String agent, String text) {
        try {
            if (rel.endsWith(".toml")) TomlTables.scan(text);
            else JsonDocument.parse(text, agent.equals("zed") || agent.equals("vscode") || agent.equals("opencode"));
        } catch (JsonDocument.SyntaxError e) {
            throw new AssertionError(e.getMessage() + "\n" + text);
        }
    }

    @Test
    void aBlankConfigIsWrittenIntoAndBlankAgainAfterUninstall() throws IOException {
        Path file = project.resolve(".cursor/mcp.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, " \n");
        Run run = init("--agent", "cursor");
        assertEquals(0, run.code(), run.out());
        assertEquals(Files.readString(Path.of("src/test/resources/install/cursor-local/project_.cursor_mcp.json")),
                Files.readString(file));
        assertEquals(0, engram("uninstall", "--agent", "cursor").code());
        assertEquals(" \n", Files.readString(file), "the blank file comes back as it was");
    }

    @Test
    void anUnparseableConfigIsRefusedUntouchedAndTheOthersGoOn() throws IOException {
        Path cursor = project.resolve(".cursor/mcp.json");
        Files.createDirectories(cursor.getParent());
        String broken = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},,\n  }\n";
        Files.writeString(cursor, broken);
        Path codex = project.resolve(".codex/config.toml");
        Files.createDirectories(codex.getParent());
        String badToml = "model = \"o3\nother = 1\n";
        Files.writeString(codex, badToml);
        Run run = init("--agent", "cursor,codex,kiro");
        assertEquals(1, run.code(), run.out());
        assertTrue(run.out().contains("cursor: refused: " + cursor + " is not valid JSON: expected a quoted key at line 3"), run.out());
        assertTrue(run.out().contains("codex: refused: " + codex + " is not valid TOML: unterminated string at line 1"), run.out());
        assertEquals(broken, Files.readString(cursor));
        assertEquals(badToml, Files.readString(codex));
        assertFalse(Files.exists(project.resolve(".codex/hooks.json")), "nothing is written for a refused agent");
        assertTrue(Files.readString(project.resolve(".kiro/settings/mcp.json")).contains("\"engram\""));
    }

    @Test
    void antigravitysHooksAreANamedSetInHooksJsonAndAnUnreadableOneIsRefusedUntouched() throws IOException {
        Run run = init("--agent", "antigravity", "--profile", "toon", "--capture");
        assertEquals(0, run.code(), run.out() + run.err());
        Map<String, Object> hooks = dev.engram.mcp.json.JsonText.standard().readObject(Files.readString(project.resolve(".agents/hooks.json")));
        assertEquals(java.util.Set.of("engram"), hooks.keySet(), "every top-level key is a hook set's name");
        @SuppressWarnings("unchecked") Map<String, Object> mine = (Map<String, Object>) hooks.get("engram");
        assertEquals(List.of(Map.of("type", "command", "command", COMMAND + " hook session-start antigravity --profile toon")),
                mine.get("PreInvocation"), "PreInvocation and Stop list their handlers directly");
        assertEquals(List.of(Map.of("type", "command", "command", COMMAND + " hook stop antigravity --profile toon")), mine.get("Stop"));
        assertEquals(List.of(Map.of("matcher", "*", "hooks", List.of(Map.of("type", "command", "command", COMMAND + " hook capture antigravity")))),
                mine.get("PostToolUse"), "PostToolUse takes matcher groups");
        assertEquals(0, engram("uninstall", "--agent", "antigravity").code());
        assertFalse(Files.exists(project.resolve(".agents/hooks.json")));
        // on Windows its hook shell is not documented: plain words only, a path with a space gets no hooks and says why
        Run spaced = engramOn("Windows 11", "init", "--command", "\"C:\\Program Files\\engram\\engram.exe\"", "--agent", "antigravity");
        assertEquals(0, spaced.code(), spaced.out() + spaced.err());
        assertTrue(spaced.out().contains("antigravity: no hooks registered (the MCP server is): the shell it runs hooks with on Windows"
                + " is not documented"), spaced.out());
        assertFalse(Files.exists(project.resolve(".agents/hooks.json")));
        Run plain = engramOn("Windows 11", "init", "--command", "C:\\engram\\engram.exe", "--agent", "antigravity");
        assertEquals(0, plain.code(), plain.out() + plain.err());
        assertTrue(Files.readString(project.resolve(".agents/hooks.json")).contains(
                "\"command\": \"C:\\\\engram\\\\engram.exe hook session-start antigravity --profile native\""), plain.out());
        assertEquals(0, engramOn("Windows 11", "uninstall", "--agent", "antigravity").code());
        assertFalse(Files.exists(project.resolve(".agents/hooks.json")));

        // a hooks.json Antigravity could not read either: refused, left as it is, and nothing written for the agent
        Path file = Files.createDirectories(project.resolve(".agents")).resolve("hooks.json");
        String broken = "{\n  \"lint\": {\"PostToolUse\": [],},\n}\n";
        Files.writeString(file, broken);
        Run refused = init("--agent", "antigravity,cursor");
        assertEquals(1, refused.code(), refused.out());
        assertTrue(refused.out().contains("antigravity: refused: " + file + " is not valid JSON: "), refused.out());
        assertTrue(refused.out().contains("Nothing was written for antigravity"), refused.out());
        assertEquals(broken, Files.readString(file));
        assertFalse(Files.exists(project.resolve(".agents/mcp_config.json")), "nothing is written for a refused agent");
        assertTrue(Files.exists(project.resolve(".cursor/mcp.json")), "the other agents go on");
        // --no-hooks registers the server alone and leaves the file be
        Run serverOnly = init("--agent", "antigravity", "--no-hooks");
        assertEquals(0, serverOnly.code(), serverOnly.out());
        assertTrue(Files.readString(project.resolve(".agents/mcp_config.json")).contains("\"engram\""));
        assertEquals(broken, Files.readString(file));
    }

    @Test
    void dryRunPrintsTheChangeAndWritesNothing() throws IOException {
        Files.createDirectories(project.resolve(".cursor"));
        Map<String, String> before = files();
        Run run = init("--dry-run");
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().contains("cursor: would create " + project.resolve(".cursor/mcp.json")), run.out());
        assertTrue(run.out().contains("+     \"engram\": {"), run.out());
        assertTrue(run.out().contains("Dry run: nothing was written."), run.out());
        assertEquals(before, files());
        assertFalse(Files.exists(home.resolve(".local/share/engram/installs.json")));
    }

    @Test
    void uninstallDryRunShowsTheRemovalAndKeepsEverything() throws IOException {
        assertEquals(0, init("--agent", "claude").code());
        Map<String, String> installed = files();
        Path manifest = home.resolve(".local/share/engram/installs.json");
        String record = Files.readString(manifest);
        Run run = engram("uninstall", "--dry-run");
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().contains("claude: would remove server from " + project.resolve(".mcp.json")
                + " (and delete the file init created)"), run.out());
        assertTrue(run.out().contains("would delete " + project.resolve(".mcp.json")), run.out());
        assertEquals(installed, files());
        assertEquals(record, Files.readString(manifest));
        // a real run afterwards still finds everything to remove
        assertEquals(0, engram("uninstall").code());
        assertFalse(Files.exists(project.resolve(".mcp.json")));
        Run again = engram("uninstall");
        assertTrue(again.out().contains("Nothing to remove"), again.out());
    }

    @Test
    void withoutAgentOnlyTheDetectedAgentsAreRegistered() throws IOException {
        Files.createDirectories(project.resolve(".cursor"));
        Files.createDirectories(project.resolve(".gemini"));
        Run run = init("--profile", "toon");
        assertEquals(0, run.code(), run.out());
        assertTrue(Files.readString(project.resolve(".cursor/mcp.json")).contains("[\"mcp\", \"--profile\", \"toon\"]"));
        String gemini = Files.readString(project.resolve(".gemini/settings.json"));
        assertTrue(gemini.contains("hook session-start gemini --profile toon"), gemini);
        // with toon's profile the end of each turn writes toon's checkpoint
        assertTrue(gemini.contains("\"AfterAgent\": [") && gemini.contains("/opt/engram/bin/engram hook stop --profile toon"), gemini);
        assertFalse(Files.readString(project.resolve(".cursor/mcp.json")).contains("hook"), "Cursor gets no hooks");
        assertFalse(Files.exists(project.resolve(".mcp.json")));
        assertFalse(Files.exists(project.resolve(".vscode")));
    }

    @Test
    void storeAndZoneGivenToInitAreWrittenIntoTheCommands() throws IOException {
        Run run = engram("--store", "shared-store", "--zone", "team", "init", "--agent", "claude", "--command", COMMAND);
        assertEquals(0, run.code(), run.out() + run.err());
        String store = project.resolve("shared-store").toString();
        String mcp = Files.readString(project.resolve(".mcp.json"));
        assertTrue(mcp.contains("[\"mcp\", \"--profile\", \"native\", \"--store\", \"" + store + "\", \"--zone\", \"team\"]"), mcp);
        String hooks = Files.readString(project.resolve(".claude/settings.json"));
        assertTrue(hooks.contains(COMMAND + " hook session-start claude --profile native --store " + store + " --zone team"), hooks);
    }

    /** The commands of one hooks file's handlers, by event. */
    private static Map<String, List<String>> hookCommands(Path file) throws IOException {
        Map<String, List<String>> out = new TreeMap<>();
        Map<?, ?> hooks;
        try {
            hooks = (Map<?, ?>) ((Map<?, ?>) JsonDocument.parse(Files.readString(file), false).value()).get("hooks");
        } catch (JsonDocument.SyntaxError e) {
            throw new AssertionError(file + ": " + e.getMessage());
        }
        for (Map.Entry<?, ?> e : hooks.entrySet()) {
            for (Object group : (List<?>) e.getValue()) {
                for (Object handler : (List<?>) ((Map<?, ?>) group).get("hooks")) {
                    out.computeIfAbsent((String) e.getKey(), k -> new ArrayList<>()).add((String) ((Map<?, ?>) handler).get("command"));
                }
            }
        }
        return out;
    }

    @Test
    void onWindowsEachAgentsHooksAreWrittenForTheShellItRunsThemWith() throws IOException {
        // as a cmd.exe or PowerShell user types it: double quotes, backslashes that are path separators
        String java = "\"C:\\Program Files\\Java\\jdk-17\\bin\\java.exe\" -jar \"C:\\Users\\Jo Smith\\engram\\engram.jar\"";
        Run run = engramOn("Windows 11", "init", "--command", java, "--agent", "claude", "--agent", "gemini", "--agent", "codex",
                "--profile", "toon", "--capture");
        assertEquals(0, run.code(), run.out() + run.err());
        // the MCP server entries take the program and its arguments apart: written as they are
        String mcp = Files.readString(project.resolve(".mcp.json"));
        assertTrue(mcp.contains("\"command\": \"C:\\\\Program Files\\\\Java\\\\jdk-17\\\\bin\\\\java.exe\""), mcp);
        assertTrue(mcp.contains("\"C:\\\\Users\\\\Jo Smith\\\\engram\\\\engram.jar\", \"mcp\""), mcp);
        // Claude Code: Git Bash or cmd.exe
        String bash = "\"C:/Program Files/Java/jdk-17/bin/java.exe\" -jar \"C:/Users/Jo Smith/engram/engram.jar\" ";
        assertEquals(Map.of("SessionStart", List.of(bash + "hook session-start claude --profile toon"),
                "PostToolUse", List.of(bash + "hook capture claude"), "Stop", List.of(bash + "hook stop --profile toon")),
                hookCommands(project.resolve(".claude/settings.json")));
        // Gemini CLI: PowerShell
        String ps = "& 'C:\\Program Files\\Java\\jdk-17\\bin\\java.exe' -jar 'C:\\Users\\Jo Smith\\engram\\engram.jar' ";
        assertEquals(Map.of("SessionStart", List.of(ps + "hook session-start gemini --profile toon"),
                "AfterTool", List.of(ps + "hook capture gemini"), "AfterAgent", List.of(ps + "hook stop --profile toon")),
                hookCommands(project.resolve(".gemini/settings.json")));
        // Codex: cmd.exe /C cannot be given a path with a space; its server is registered, its hooks are not, and it says why
        assertTrue(Files.readString(project.resolve(".codex/config.toml")).contains("[mcp_servers.engram]"));
        assertFalse(Files.exists(project.resolve(".codex/hooks.json")));
        assertTrue(run.out().contains("codex: no hooks registered (the MCP server is): its hooks run through cmd.exe /C"), run.out());

        // a path without spaces: Codex gets its hooks, backslashes as they are
        Run codex = engramOn("Windows 11", "init", "--command", "C:\\engram\\engram.exe", "--agent", "codex", "--profile", "toon");
        assertEquals(0, codex.code(), codex.out() + codex.err());
        assertEquals(Map.of("SessionStart", List.of("C:\\engram\\engram.exe hook session-start codex --profile toon"),
                "Stop", List.of("C:\\engram\\engram.exe hook stop --profile toon")), hookCommands(project.resolve(".codex/hooks.json")));
        assertEquals(0, engramOn("Windows 11", "uninstall", "--agent", "claude", "--agent", "gemini", "--agent", "codex").code());
        assertFalse(Files.exists(project.resolve(".codex/hooks.json")));
        Run relative = engramOn("Windows 11", "init", "--agent", "cursor", "--command", "engram\\engram.exe");
        assertTrue(relative.err().contains("is a relative path"), relative.err());
    }

    @Test
    void anEntryEditedSinceInitIsLeftAndReported() throws IOException {
        assertEquals(0, init("--agent", "cursor", "--no-hooks").code());
        Path file = project.resolve(".cursor/mcp.json");
        String edited = Files.readString(file).replace("\"native\"", "\"memento\"");
        Files.writeString(file, edited);
        Run run = engram("uninstall", "--agent", "cursor");
        assertEquals(0, run.code(), run.out());
        assertTrue(run.out().contains("cursor: left the server in " + file + ": it was changed since engram init wrote it"), run.out());
        assertEquals(edited, Files.readString(file));
    }

    @Test
    void aDifferentEngramEntryIsUpdatedAndUninstallPutsItBack() throws IOException {
        Path file = project.resolve(".mcp.json");
        String original = "{\n  \"mcpServers\": {\n    \"engram\": {\"command\": \"old-engram\"}\n  }\n}\n";
        Files.writeString(file, original);
        Run run = init("--agent", "claude", "--no-hooks");
        assertTrue(run.out().contains("claude: server updated in " + file), run.out());
        assertNotEquals(original, Files.readString(file));
        engram("uninstall", "--agent", "claude");
        assertEquals(original, Files.readString(file));
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingIsWritten() throws IOException {
        Run unknown = init("--agent", "notepad");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--agent 'notepad' is not an agent Engram knows; send one of claude, cursor, codex"), unknown.err());
        Run scope = init("--agent", "cursor", "--scope", "team");
        assertEquals(2, scope.code());
        assertTrue(scope.err().contains("--scope 'team' is not a scope; send local"), scope.err());
        Run profile = init("--agent", "cursor", "--profile", "nope");
        assertEquals(2, profile.code());
        Run relative = engram("init", "--agent", "cursor", "--command", "bin/engram");
        assertEquals(2, relative.code());
        assertTrue(relative.err().contains("is a relative path"), relative.err());
        Run none = init();
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no agent's config folder was found in " + project), none.err());
        Run windsurf = init("--agent", "windsurf");
        assertEquals(1, windsurf.code());
        assertTrue(windsurf.out().contains("windsurf: refused: it has no local MCP config; use --scope global"), windsurf.out());
        assertEquals(Map.of(), files());
    }

    static Stream<Arguments> existingGlobalConfigs() {
        return Stream.of(
                // OpenClaw's config is JSON5: comments and trailing commas are read and kept
                Arguments.of("openclaw", "home/.openclaw/openclaw.json", """
                        // OpenClaw
                        {
                          "agents": { "defaults": { "model": "anthropic/claude-opus-4" } },
                          "mcp": {
                            "sessionIdleTtlMs": 600000, // ten minutes
                            "servers": {
                              "docs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-fetch"], },
                            },
                          },
                        }
                        """),
                Arguments.of("kimi", "home/.kimi/mcp.json", "{\n  \"mcpServers\": {\n    \"context7\": {\"url\": \"https://mcp.context7.com/mcp\"}\n  }\n}\n"),
                // as Goose saves it: sorted keys, indentless lists, its defaults written out; no line break at the end
                Arguments.of("goose", "home/.config/goose/config.yaml", """
                        GOOSE_MODEL: claude-sonnet-4
                        GOOSE_PROVIDER: anthropic
                        extensions:
                          developer:
                            available_tools: []
                            bundled: true
                            description: null
                            display_name: Developer
                            enabled: true
                            name: developer
                            timeout: 300
                            type: builtin
                          github:
                            args:
                            - -y
                            - '@modelcontextprotocol/server-github'
                            cmd: npx
                            enabled: false
                            envs: {}
                            name: github
                            type: stdio""".stripTrailing()),
                Arguments.of("goose", "home/.config/goose/config.yaml", """
                        # my Goose
                        GOOSE_PROVIDER: ollama    # local
                        GOOSE_MODE: smart_approve
                        """),
                Arguments.of("grok", "home/.grok/config.toml", "[models]\ndefault = \"grok-build\"\n\n[ui]\ntheme = 'dark'\n"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("existingGlobalConfigs")
    void theUsersGlobalConfigKeepsEverythingElseAndUninstallRestoresTheBytes(String agent, String rel, String original) throws IOException {
        Path file = tmp.resolve(rel);
        Files.createDirectories(file.getParent());
        Files.writeString(file, original);
        Run run = init("--agent", agent, "--scope", "global", "--profile", "toon");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains(agent + ": server added to " + file), run.out());
        String merged = Files.readString(file);
        if (rel.endsWith(".yaml")) {
            Map<?, ?> root = (Map<?, ?>) yaml(merged);
            Map<?, ?> before = (Map<?, ?>) yaml(original);
            Map<?, ?> engram = (Map<?, ?>) ((Map<?, ?>) root.get("extensions")).get("engram");
            assertEquals(Map.of("enabled", true, "type", "stdio", "name", "engram", "description", "Engram: durable memory for coding agents",
                    "cmd", COMMAND, "args", List.of("mcp", "--profile", "toon")), engram, merged);
            for (Map.Entry<?, ?> e : before.entrySet()) {
                if (!e.getKey().equals("extensions")) assertEquals(e.getValue(), root.get(e.getKey()), merged);
                else for (Map.Entry<?, ?> x : ((Map<?, ?>) e.getValue()).entrySet()) {
                    assertEquals(x.getValue(), ((Map<?, ?>) root.get("extensions")).get(x.getKey()), merged);
                }
            }
            assertTrue(merged.startsWith(original.lines().findFirst().orElseThrow()), merged);
        } else if (rel.endsWith(".toml")) {
            assertTrue(merged.startsWith(original) && merged.endsWith("[mcp_servers.engram]\ncommand = \"" + COMMAND
                    + "\"\nargs = [\"mcp\", \"--profile\", \"toon\"]\n"), merged);
            assertParsesAs(rel, agent, merged);
        } else {
            assertTrue(contained(parse(original), parse(merged)), merged);
            try {
                Map<?, ?> root = (Map<?, ?>) JsonDocument.parse(merged, true).value();
                Map<?, ?> servers = agent.equals("openclaw") ? (Map<?, ?>) ((Map<?, ?>) root.get("mcp")).get("servers")
                        : (Map<?, ?>) root.get("mcpServers");
                assertTrue(servers.containsKey("engram"), merged);
            } catch (JsonDocument.SyntaxError e) {
                throw new AssertionError(e.getMessage() + "\n" + merged);
            }
            if (agent.equals("openclaw")) assertTrue(merged.contains("\"sessionIdleTtlMs\": 600000, // ten minutes"), merged);
        }
        Run again = init("--agent", agent, "--scope", "global", "--profile", "toon");
        assertTrue(again.out().contains("Nothing changed"), again.out());
        assertEquals(merged, Files.readString(file));

        Run removed = engram("uninstall", "--agent", agent, "--scope", "global");
        assertEquals(0, removed.code(), removed.out());
        assertEquals(original, Files.readString(file), "uninstall must restore the original byte for byte");
    }

    @Test
    void aGooseOrOpenClawConfigThatCannotBeEditedSafelyIsRefusedUntouched() throws IOException {
        Path goose = home.resolve(".config/goose/config.yaml");
        Files.createDirectories(goose.getParent());
        String tabbed = "extensions:\n  developer:\n\tenabled: true\n";
        Files.writeString(goose, tabbed);
        Path openclaw = home.resolve(".openclaw/openclaw.json");
        Files.createDirectories(openclaw.getParent());
        String json5 = "{\n  mcp: { servers: {} },\n}\n"; // unquoted keys: JSON5 engram init does not read
        Files.writeString(openclaw, json5);
        Run run = init("--agent", "goose,openclaw,kimi", "--scope", "global");
        assertEquals(1, run.code(), run.out());
        assertTrue(run.out().contains("goose: refused: " + goose + " is not valid YAML: found character '\\t(TAB)' that cannot start any"
                + " token. (Do not use \\t(TAB) for indentation) at line 3, column 1"), run.out());
        assertTrue(run.out().contains("openclaw: refused: " + openclaw + " is not valid JSON5 as engram init reads it (JSON with comments"
                + " and trailing commas; unquoted keys, single quotes and the like are refused, not guessed at): expected a quoted key at line 2"),
                run.out());
        assertEquals(tabbed, Files.readString(goose));
        assertEquals(json5, Files.readString(openclaw));
        assertTrue(Files.readString(home.resolve(".kimi/mcp.json")).contains("\"engram\""), "the others go on");

        String flow = "GOOSE_MODE: auto\nextensions: {developer: {enabled: true, type: builtin, name: developer}}\n";
        Files.writeString(goose, flow);
        Run refused = init("--agent", "goose", "--scope", "global");
        assertEquals(1, refused.code(), refused.out());
        assertTrue(refused.out().contains("goose: refused: " + goose + " cannot take the entry: 'extensions' is written in flow style"),
                refused.out());
        assertEquals(flow, Files.readString(goose));
    }

    @Test
    void aiderIsRefusedWithTheReasonAndTheOtherAgentsGoOn() throws IOException {
        Run run = init("--agent", "aider,trae");
        assertEquals(1, run.code(), run.out());
        assertTrue(run.out().contains("aider: refused: Aider has no MCP client (Aider-AI/aider#2525 is still open) and no hooks"), run.out());
        assertTrue(run.out().contains("Nothing was written for aider."), run.out());
        assertEquals(Map.of("project/.trae/mcp.json", Files.readString(project.resolve(".trae/mcp.json"))), files(),
                "Trae's file only: nothing for Aider, no CONVENTIONS.md");
        assertEquals(1, init("--agent", "aider", "--scope", "global").code());
    }

    @Test
    void theOpenCodePluginComesWithTheHooksAndIsReplacedOnlyWhenItIsEngrams() throws IOException {
        Path plugin = project.resolve(".opencode/plugins/engram.js");
        assertEquals(0, init("--agent", "opencode", "--no-hooks").code());
        assertFalse(Files.exists(plugin), "--no-hooks: the server only");
        assertEquals(0, engram("uninstall", "--agent", "opencode").code());

        // a file of someone else's at that path: refused, nothing written for OpenCode
        Files.createDirectories(plugin.getParent());
        Files.writeString(plugin, "export const Mine = async () => ({})\n");
        Run foreign = init("--agent", "opencode");
        assertEquals(1, foreign.code(), foreign.out());
        assertTrue(foreign.out().contains("opencode: refused: " + plugin + " cannot take the entry: it is not Engram's plugin"), foreign.out());
        assertEquals("export const Mine = async () => ({})\n", Files.readString(plugin));
        assertFalse(Files.exists(project.resolve("opencode.json")));
        Files.delete(plugin);

        // Engram's own, for another profile: replaced, and put back by uninstall
        assertEquals(0, init("--agent", "opencode").code());
        String nativePlugin = Files.readString(plugin);
        assertTrue(nativePlugin.contains("const SESSION_START = [\"hook\", \"session-start\", \"opencode\", \"--profile\", \"native\"]"),
                nativePlugin);
        assertTrue(nativePlugin.contains("const CAPTURE = null") && nativePlugin.contains("const STOP = null"), nativePlugin);
        Path manifest = home.resolve(".local/share/engram/installs.json");
        Files.delete(manifest); // as if another machine's init had written it: this init did not create the file
        Run toon = init("--agent", "opencode", "--profile", "toon", "--capture");
        assertEquals(0, toon.code(), toon.out());
        assertTrue(toon.out().contains("opencode: hooks plugin updated in " + plugin), toon.out());
        String toonPlugin = Files.readString(plugin);
        assertTrue(toonPlugin.contains("const STOP = [\"hook\", \"stop\", \"--profile\", \"toon\"]")
                && toonPlugin.contains("const CAPTURE = [\"hook\", \"capture\", \"opencode\"]"), toonPlugin);
        assertTrue(init("--agent", "opencode", "--profile", "toon", "--capture").out().contains("Nothing changed"));
        assertEquals(0, engram("uninstall", "--agent", "opencode").code());
        assertEquals(nativePlugin, Files.readString(plugin), "the plugin it replaced comes back");

        // one edited since init wrote it stays, and says so
        Files.delete(plugin);
        Files.delete(project.resolve("opencode.json"));
        assertEquals(0, init("--agent", "opencode").code());
        Files.writeString(plugin, Files.readString(plugin).replace("TIMEOUT_MS = 30000", "TIMEOUT_MS = 5000"));
        Run left = engram("uninstall", "--agent", "opencode");
        assertEquals(0, left.code(), left.out());
        assertTrue(left.out().contains("opencode: left the hooks plugin " + plugin + ": it was changed since engram init wrote it"), left.out());
        assertTrue(Files.exists(plugin));
        assertFalse(Files.exists(project.resolve("opencode.json")), "the server it added still goes");

        // a dry run shows the file it would create
        Files.delete(plugin);
        Run dry = init("--agent", "opencode", "--scope", "global", "--dry-run");
        assertTrue(dry.out().contains("opencode: would create " + home.resolve(".config/opencode/plugins/engram.js") + ":"), dry.out());
        assertTrue(dry.out().contains("+ // Engram's OpenCode plugin, written by `engram init`"), dry.out());
        assertFalse(Files.exists(home.resolve(".config/opencode/plugins")));
    }

    @Test
    void onWindowsTheOpenCodePluginIsNotWrittenForABatchFile() throws IOException {
        Run run = engramOn("Windows 11", "init", "--agent", "opencode", "--command", "C:\\engram\\engram.cmd");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("opencode: no hooks registered (the MCP server is): its plugin starts Engram without a shell,"
                + " which cannot run the batch file C:\\engram\\engram.cmd"), run.out());
        assertFalse(Files.exists(project.resolve(".opencode/plugins/engram.js")));
        Run exe = engramOn("Windows 11", "init", "--agent", "opencode", "--command", "C:\\engram\\engram.exe");
        assertEquals(0, exe.code(), exe.out() + exe.err());
        assertTrue(Files.readString(project.resolve(".opencode/plugins/engram.js")).contains("const ENGRAM = [\"C:\\\\engram\\\\engram.exe\"]"));
    }

    @Test
    void aSecondInitWithOtherSettingsIsUndoneByOneUninstallBackToBeforeTheFirst() throws IOException {
        Path codex = project.resolve(".codex/config.toml");
        Files.createDirectories(codex.getParent());
        Files.writeString(codex, "model = \"o3\"\n");
        Path goose = home.resolve(".config/goose/config.yaml");
        Files.createDirectories(goose.getParent());
        Files.writeString(goose, "GOOSE_MODE: auto\n");
        Map<String, String> before = files();
        java.util.Set<String> foldersBefore = folders();
        assertEquals(0, init("--agent", "claude,codex,opencode,trae").code());
        assertEquals(0, init("--agent", "goose", "--scope", "global").code());
        Run again = init("--agent", "claude,codex,opencode,trae", "--profile", "toon", "--capture");
        assertEquals(0, again.code(), again.out());
        assertTrue(again.out().contains("codex: server updated in " + codex), again.out());
        assertTrue(again.out().contains("opencode: hooks plugin updated in " + project.resolve(".opencode/plugins/engram.js")), again.out());
        assertTrue(Files.readString(project.resolve(".mcp.json")).contains("\"toon\""));
        // the hook of the first init is replaced, not joined: one briefing per session, not two
        assertEquals(List.of(COMMAND + " hook session-start claude --profile toon"),
                hookCommands(project.resolve(".claude/settings.json")).get("SessionStart"));
        assertEquals(List.of(COMMAND + " hook session-start codex --profile toon"), hookCommands(project.resolve(".codex/hooks.json")).get("SessionStart"));
        assertTrue(again.out().contains("claude: hook session-start updated in " + project.resolve(".claude/settings.json")), again.out());
        assertEquals(0, init("--agent", "goose", "--scope", "global", "--profile", "toon").code());
        assertTrue(Files.readString(goose).contains("args: [\"mcp\", \"--profile\", \"toon\"]"), Files.readString(goose));

        assertEquals(0, engram("uninstall").code());
        Run global = engram("uninstall", "--scope", "global");
        assertEquals(0, global.code(), global.out());
        assertEquals(before, files(), "not the first init's entries: the files as they were before it");
        assertEquals(foldersBefore, folders());
    }
}
