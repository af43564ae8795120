package dev.engram.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The YAML edit under {@code engram init --agent goose}: the entry lands in the file's own {@code extensions:}
 * mapping, the file still parses (a YAML parser reads it back: every other value unchanged), removal gives the
 * original bytes back, and what cannot be edited safely is refused.
 */
class YamlEditTest {
    private static final Map<String, Object> ENGRAM = Agent.Shape.GOOSE.entry("/opt/engram/bin/engram", List.of("mcp", "--profile", "toon"));

    /** A config as Goose itself saves it (serde_yaml: sorted keys, indentless lists, its defaults written out). */
    private static final String GOOSE_SAVED = """
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
                bundled: null
                cmd: npx
                description: GitHub
                enabled: false
                env_keys: []
                envs: {}
                name: github
                timeout: 300
                type: stdio
            GOOSE_MODE: smart_approve
            """;

    private static Object yaml(String text) {
        return new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(text);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    /** Adds the entry, checks it reads back with everything else unchanged, removes it, checks the bytes. */
    private static YamlEdit.Added roundTrip(String original) throws Exception {
        YamlEdit.Added added = YamlEdit.add(original, "extensions", "engram", ENGRAM);
        assertNotNull(added, original);
        Map<String, Object> before = original.isBlank() || yaml(original) == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map(yaml(original)));
        Map<String, Object> after = map(yaml(added.text()));
        assertEquals(ENGRAM, map(after.get("extensions")).get("engram"), added.text());
        // every other key and extension as it was
        Map<String, Object> expected = new LinkedHashMap<>(before);
        Map<String, Object> extensions = new LinkedHashMap<>(before.get("extensions") == null ? Map.of() : map(before.get("extensions")));
        extensions.put("engram", ENGRAM);
        expected.put("extensions", extensions);
        assertEquals(expected, after, added.text());
        assertNull(YamlEdit.add(added.text(), "extensions", "engram", ENGRAM), "a second addition changes nothing");
        TextRemoval removal = YamlEdit.remove(added.text(), added.placement());
        assertNull(removal.edited());
        assertEquals(original, removal.text(), "removal gives the original bytes back");
        return added;
    }

    @Test
    void aConfigGooseSavedGetsTheEntryAfterItsLastExtensionInItsIndentation() throws Exception {
        YamlEdit.Added added = roundTrip(GOOSE_SAVED);
        assertTrue(added.text().contains("""
                    type: stdio
                  engram:
                    enabled: true
                    type: stdio
                    name: engram
                    description: "Engram: durable memory for coding agents"
                    cmd: /opt/engram/bin/engram
                    args: ["mcp", "--profile", "toon"]
                GOOSE_MODE: smart_approve
                """), added.text());
    }

    @Test
    void aHandWrittenConfigKeepsItsCommentsAndFourSpaceIndentation() throws Exception {
        String original = """
                # Goose settings
                GOOSE_PROVIDER: openai   # the provider
                extensions:
                    # the built-in one
                    developer:
                        enabled: true
                        type: builtin
                        name: developer
                    memory:
                        enabled: true
                        type: builtin
                        name: memory   # a comment on the last line
                # models
                GOOSE_MODEL: gpt-4o
                """;
        YamlEdit.Added added = roundTrip(original);
        assertTrue(added.text().contains("name: memory   # a comment on the last line\n    engram:\n        enabled: true\n"), added.text());
        assertTrue(added.text().endsWith("# models\nGOOSE_MODEL: gpt-4o\n"), added.text());
    }

    @Test
    void withoutExtensionsTheMappingIsAppendedAndRemovedWithTheLineBreakInitAdded() throws Exception {
        YamlEdit.Added added = roundTrip("GOOSE_PROVIDER: ollama\nGOOSE_MODEL: qwen3");
        assertEquals("\n", added.placement().prefix());
        assertTrue(added.text().startsWith("GOOSE_PROVIDER: ollama\nGOOSE_MODEL: qwen3\nextensions:\n  engram:\n"), added.text());
        roundTrip("");
        roundTrip("# nothing yet\n");
        roundTrip("---\nGOOSE_MODE: auto\n");
    }

    @Test
    void anEmptyExtensionsKeyGetsTheEntryOnTheLinesBelowIt() throws Exception {
        YamlEdit.Added added = roundTrip("extensions:   # none yet\nGOOSE_MODE: auto\n");
        assertTrue(added.text().startsWith("extensions:   # none yet\n  engram:\n    enabled: true\n"), added.text());
        roundTrip("GOOSE_MODE: auto\nextensions:");
    }

    @Test
    void entriesEndingInABlockScalarOrAnIndentlessListStayWhole() throws Exception {
        roundTrip("""
                extensions:
                  notes:
                    enabled: true
                    description: |
                      first line
                      second line

                GOOSE_MODE: auto
                """);
        roundTrip("""
                extensions:
                  notes:
                    enabled: true
                    args:
                    - a
                    - b
                """);
        roundTrip("extensions:\n  folded:\n    description: >-\n      one\n      two\n");
    }

    @Test
    void windowsLineEndsAndCharactersOutsideTheBasicPlaneAreKept() throws Exception {
        YamlEdit.Added crlf = roundTrip("GOOSE_MODE: auto\r\nextensions:\r\n  developer:\r\n    enabled: true\r\n");
        assertTrue(crlf.text().endsWith("    enabled: true\r\n  engram:\r\n    enabled: true\r\n    type: stdio\r\n    name: engram\r\n"
                + "    description: \"Engram: durable memory for coding agents\"\r\n    cmd: /opt/engram/bin/engram\r\n"
                + "    args: [\"mcp\", \"--profile\", \"toon\"]\r\n"), crlf.text());
        // a byte order mark at the start is a character of the text like any other
        roundTrip("\uFEFFGOOSE_MODE: auto\nextensions:\n  developer:\n    enabled: true\nGOOSE_MODEL: x\n");
        // the parser counts code points: an emoji before the mapping must not shift the edit
        roundTrip("GOOSE_NOTE: \"\uD83E\uDEBF honk \uD83E\uDEBF\"\nextensions:\n  developer:\n    name: \"\uD83E\uDEBF\"\nGOOSE_MODE: auto\n");
    }

    @Test
    void anEntryOfAnotherValueIsReplacedAndPutBackOnRemoval() throws Exception {
        String original = "extensions:\n  engram:\n    enabled: true\n    type: stdio\n    cmd: old-engram\n    args: []\n  other:\n    enabled: false\n";
        YamlEdit.Added added = YamlEdit.add(original, "extensions", "engram", ENGRAM);
        assertEquals("  engram:\n    enabled: true\n    type: stdio\n    cmd: old-engram\n    args: []\n", added.placement().replaced());
        assertEquals(ENGRAM, map(map(map(yaml(added.text())).get("extensions")).get("engram")));
        assertTrue(added.text().endsWith("  other:\n    enabled: false\n"), added.text());
        assertEquals(original, YamlEdit.remove(added.text(), added.placement()).text());
    }

    @Test
    void goosesOwnRewriteOfTheEntryIsStillOursAndAnEditIsNot() throws Exception {
        YamlEdit.Added added = YamlEdit.add(GOOSE_SAVED, "extensions", "engram", ENGRAM);
        // Goose saved the file again: its keys sorted, its defaults written out, lists indentless
        String resaved = GOOSE_SAVED.replace("GOOSE_MODE: smart_approve\n", "") + """
                  engram:
                    args:
                    - mcp
                    - --profile
                    - toon
                    available_tools: []
                    bundled: null
                    cmd: /opt/engram/bin/engram
                    description: 'Engram: durable memory for coding agents'
                    enabled: true
                    env_keys: []
                    envs: {}
                    name: engram
                    timeout: null
                    type: stdio
                GOOSE_MODE: smart_approve
                """;
        assertNull(YamlEdit.add(resaved, "extensions", "engram", ENGRAM), "the same entry: nothing to change");
        TextRemoval removal = YamlEdit.remove(resaved, added.placement());
        assertEquals(GOOSE_SAVED, removal.text());
        TextRemoval edited = YamlEdit.remove(resaved.replace("    enabled: true\n    env_keys", "    enabled: false\n    env_keys"),
                added.placement());
        assertNull(edited.text());
        assertNotNull(edited.edited(), "an entry the user switched off is theirs now");
        assertNull(YamlEdit.remove(GOOSE_SAVED, added.placement()).text(), "gone already");
    }

    @Test
    void whatCannotBeEditedSafelyIsRefusedWithTheReason() {
        assertEquals("'extensions' is written in flow style ({…}); engram init adds entries to block mappings only (one entry a line)",
                assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add("extensions: {developer: {enabled: true}}\n", "extensions", "engram", ENGRAM))
                        .getMessage());
        assertTrue(assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add(
                "base: &b\n  enabled: true\nextensions:\n  dev: *b\n", "extensions", "engram", ENGRAM)).getMessage().contains("aliases"));
        // an alias on the section's last line: its node carries the marks of the anchor, far above
        assertTrue(assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add(
                "base: &a [\"x\"]\nextensions:\n  dev:\n    args:\n      - *a\n", "extensions", "engram", ENGRAM)).getMessage()
                .contains("aliases"));
        assertEquals("its top level is not a mapping",
                assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add("- a\n- b\n", "extensions", "engram", ENGRAM)).getMessage());
        assertTrue(assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add("extensions: none\n", "extensions", "engram", ENGRAM))
                .getMessage().contains("is a scalar"));
        assertTrue(assertThrows(JsonEdit.Conflict.class, () -> YamlEdit.add("a: 1\n...\n", "extensions", "engram", ENGRAM))
                .getMessage().contains("'...'"));
    }

    @Test
    void textThatIsNotOneYamlDocumentIsASyntaxErrorNamingTheLine() {
        String tab = assertThrows(JsonDocument.SyntaxError.class,
                () -> YamlEdit.add("extensions:\n  developer:\n\tenabled: true\n", "extensions", "engram", ENGRAM)).getMessage();
        assertTrue(tab.contains("line 3"), tab);
        String duplicate = assertThrows(JsonDocument.SyntaxError.class,
                () -> YamlEdit.add("extensions:\n  a: {}\nextensions:\n  b: {}\n", "extensions", "engram", ENGRAM)).getMessage();
        assertTrue(duplicate.contains("duplicate key extensions"), duplicate);
        String two = assertThrows(JsonDocument.SyntaxError.class,
                () -> YamlEdit.add("a: 1\n---\nb: 2\n", "extensions", "engram", ENGRAM)).getMessage();
        assertTrue(two.contains("single document"), two);
        String unclosed = assertThrows(JsonDocument.SyntaxError.class,
                () -> YamlEdit.add("GOOSE_MODEL: \"gpt\nextensions:\n", "extensions", "engram", ENGRAM)).getMessage();
        assertTrue(unclosed.contains("line"), unclosed);
    }
}
