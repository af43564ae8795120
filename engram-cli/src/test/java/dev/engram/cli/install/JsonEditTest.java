package dev.engram.cli.install;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text edits under engram init: what they insert, what they take out, and what they refuse. */
class JsonEditTest {
    private static final JsonEdit.Entry SERVER = new JsonEdit.Entry(List.of("mcpServers"), "engram",
            Map.of("command", "engram"));

    @Test
    void anEntryAddedThenFollowedByTheUsersOwnIsRemovedAloneLeavingValidJson() throws Exception {
        String original = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"}\n  }\n}\n";
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add(original, false, SERVER);
        // the user adds a server after ours
        String edited = ins.text().replace("\"command\": \"engram\"\n    }", "\"command\": \"engram\"\n    },\n    \"b\": {}");
        JsonEdit.Deleted d = (JsonEdit.Deleted) JsonEdit.remove(edited, false, ins.placement());
        Object value = JsonDocument.parse(d.text(), false).value();
        assertEquals(Map.of("mcpServers", Map.of("a", Map.of("command", "a"), "b", Map.of())), value);
    }

    @Test
    void aContainerCreatedForTheEntryStaysWhileTheUserKeepsSomethingInIt() throws Exception {
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add("{}", false, SERVER);
        assertEquals(0, ins.placement().anchorDepth());
        String withMore = ins.text().replace("\"mcpServers\": {", "\"mcpServers\": {\n    \"mine\": {},");
        JsonEdit.Deleted d = (JsonEdit.Deleted) JsonEdit.remove(withMore, false, ins.placement());
        assertEquals(Map.of("mcpServers", Map.of("mine", Map.of())), JsonDocument.parse(d.text(), false).value());
        JsonEdit.Deleted all = (JsonEdit.Deleted) JsonEdit.remove(ins.text(), false, ins.placement());
        assertEquals("{}", all.text());
        assertTrue(all.rootEmpty());
    }

    @Test
    void commentedOutServersInAnEmptyContainerStayThroughInitAndUninstall() throws Exception {
        String original = "{\n  \"mcpServers\": {\n    // \"github\": {\n    //   \"command\": \"github-mcp-server\"\n    // }\n  }\n}\n";
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add(original, true, SERVER);
        assertTrue(ins.text().contains("// \"github\": {") && ins.text().contains("\"engram\""), ins.text());
        assertEquals(Map.of("mcpServers", Map.of("engram", Map.of("command", "engram"))), JsonDocument.parse(ins.text(), true).value());
        assertEquals(original, ((JsonEdit.Deleted) JsonEdit.remove(ins.text(), true, ins.placement())).text(), "byte for byte");
        // the user adds a server of their own after ours: removing ours keeps theirs and the comment
        String edited = ins.text().replace("\"command\": \"engram\"\n    }", "\"command\": \"engram\"\n    },\n    \"pg\": {}");
        String after = ((JsonEdit.Deleted) JsonEdit.remove(edited, true, ins.placement())).text();
        assertTrue(after.contains("// \"github\": {"), after);
        assertEquals(Map.of("mcpServers", Map.of("pg", Map.of())), JsonDocument.parse(after, true).value());
        String crlf = original.replace("\n", "\r\n");
        JsonEdit.Inserted windows = (JsonEdit.Inserted) JsonEdit.add(crlf, true, SERVER);
        assertTrue(!windows.text().replace("\r\n", "").contains("\n") && !windows.text().contains("\r\r"), windows.text());
    }

    @Test
    void plainJsonRefusesWhatOnlyJsoncAllows() throws Exception {
        String jsonc = "{\n  // note\n  \"a\": 1,\n}";
        assertThrows(JsonDocument.SyntaxError.class, () -> JsonEdit.add(jsonc, false, SERVER));
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add(jsonc, true, SERVER);
        assertTrue(ins.text().startsWith("{\n  // note\n  \"a\": 1,\n  \"mcpServers\": {"), ins.text());
        assertEquals(jsonc, ((JsonEdit.Deleted) JsonEdit.remove(ins.text(), true, ins.placement())).text());
    }

    @Test
    void aRealisticCodexConfigIsReadAndGetsTheTableAppended() throws Exception {
        String config = String.join("\n",
                "# ~/.codex/config.toml",
                "model = \"gpt-5\"",
                "model_reasoning_effort = 'high'",
                "max_tokens = 1_000",
                "temperature = -0.5e0",
                "started = 2026-01-02T03:04:05Z",
                "",
                "[projects.\"/home/me/repo\"]",
                "trust_level = \"trusted\"",
                "",
                "[mcp_servers.github]",
                "command = \"npx\"",
                "args = [",
                "  \"-y\", # the package",
                "  \"@modelcontextprotocol/server-github\",",
                "]",
                "env = { GITHUB_TOKEN = \"x\", \"A.B\" = 'c:\\dir' }",
                "",
                "[[profiles.list]]",
                "name = \"\"\"multi",
                "line \\\" quote\"\"\"",
                "",
                "[features]",
                "hooks = true",
                "");
        TomlTables.Scan scan = TomlTables.scan(config);
        assertEquals(List.of("projects./home/me/repo", "mcp_servers.github", "profiles.list", "features"),
                scan.tables().stream().map(TomlTables.Table::name).toList());
        assertTrue(scan.keys().contains("mcp_servers.github.env"), scan.keys().toString());
        String block = "[mcp_servers.engram]\ncommand = \"engram\"\nargs = [\"mcp\"]\n";
        TomlEdit.Added added = TomlEdit.add(config, "mcp_servers.engram", block);
        assertEquals(config + "\n" + block, added.text());
        assertEquals(null, TomlEdit.add(added.text(), "mcp_servers.engram", block), "already there");
        assertEquals(config, TomlEdit.remove(added.text(), added.placement()).text());
    }

    @Test
    void aWindowsFileKeepsItsLineEnds() throws Exception {
        String crlf = "{\r\n  \"mcpServers\": {\r\n    \"a\": {}\r\n  }\r\n}\r\n";
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add(crlf, false, SERVER);
        assertEquals(-1, ins.text().replace("\r\n", "").indexOf('\n'), ins.text());
        assertEquals(crlf, ((JsonEdit.Deleted) JsonEdit.remove(ins.text(), false, ins.placement())).text());
        String toml = "model = \"o3\"\r\n";
        TomlEdit.Added added = TomlEdit.add(toml, "mcp_servers.engram", "[mcp_servers.engram]\ncommand = \"engram\"\n");
        assertEquals(toml + "\r\n[mcp_servers.engram]\r\ncommand = \"engram\"\r\n", added.text());
        assertEquals(toml, TomlEdit.remove(added.text(), added.placement()).text());
    }

    @Test
    void aPathThroughSomethingThatIsNotAnObjectIsAConflict() {
        JsonEdit.Conflict c = assertThrows(JsonEdit.Conflict.class, () -> JsonEdit.add("{\"mcpServers\": []}", false, SERVER));
        assertEquals("\"mcpServers\" is not an object", c.getMessage());
    }

    @Test
    void anEditedEntryIsReportedNotRemoved() throws Exception {
        JsonEdit.Inserted ins = (JsonEdit.Inserted) JsonEdit.add("{}", false, SERVER);
        String edited = ins.text().replace("\"engram\"\n", "\"engram2\"\n");
        assertInstanceOf(JsonEdit.Edited.class, JsonEdit.remove(edited, false, ins.placement()));
    }

    @Test
    void aTomlTableFollowedByAnotherIsRemovedAloneAndDottedKeysAreNotEdited() throws Exception {
        String original = "model = \"o3\"\n";
        String block = "[mcp_servers.engram]\ncommand = \"engram\"\n";
        TomlEdit.Added added = TomlEdit.add(original, "mcp_servers.engram", block);
        assertEquals(original + "\n" + block, added.text());
        String more = added.text() + "\n[profiles.x]\nmodel = \"o4\"\n";
        TextRemoval r = TomlEdit.remove(more, added.placement());
        assertEquals("model = \"o3\"\n\n[profiles.x]\nmodel = \"o4\"\n", r.text());
        assertThrows(JsonEdit.Conflict.class, () -> TomlEdit.add("mcp_servers.engram.command = \"x\"\n", "mcp_servers.engram", block));
        assertThrows(JsonDocument.SyntaxError.class, () -> TomlTables.scan("[table\nkey = 1\n"));
    }

    @Test
    void aFileNestedDeeperThanAnySettingsOrWithABadEscapeIsRefusedNotCrashed() {
        String deep = "{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        JsonDocument.SyntaxError e = assertThrows(JsonDocument.SyntaxError.class, () -> JsonDocument.parse(deep, false));
        assertTrue(e.getMessage().contains("nested more than " + JsonDocument.MAX_DEPTH), e.getMessage());
        String fine = "{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}";
        assertDoesNotThrow(() -> JsonDocument.parse(fine, false));
        JsonDocument.SyntaxError escape = assertThrows(JsonDocument.SyntaxError.class,
                () -> JsonDocument.parse("{\"a\": \"\\u+123\"}", false));
        assertTrue(escape.getMessage().contains("four hex digits"), escape.getMessage());
    }
}
