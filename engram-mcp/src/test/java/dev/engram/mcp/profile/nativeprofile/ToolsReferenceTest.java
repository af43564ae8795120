package dev.engram.mcp.profile.nativeprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/tools.md is generated from the registered tool specs, so it cannot drift (R14). After changing
 * a tool, regenerate with: mvn -pl engram-mcp -am verify -Dtest=ToolsReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dengram.docs.update=true
 */
class ToolsReferenceTest {
    private static final Path DOC = Path.of("..", "docs", "tools.md");

    @Test
    void docsToolsMdMatchesTheRegisteredTools() throws Exception {
        String expected = render(TestEngines.nativeProfile(Clock.systemUTC()))
                + section("server-memory profile (`--profile server-memory`)", TestEngines.serverMemoryProfile(Clock.systemUTC()),
                        serverMemoryImportNote())
                + section("brain profile (`--profile brain`, mcp-brain-tools)", TestEngines.brainProfile(Clock.systemUTC()))
                + section("toon profile (`--profile toon`, toon-memory)", TestEngines.toonProfile(Clock.systemUTC()))
                + section("memento profile (`--profile memento`, Memento MCP)", TestEngines.mementoProfile(Clock.systemUTC()));
        if (Boolean.getBoolean("engram.docs.update")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
        }
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
        assertEquals(expected, actual, "docs/tools.md is out of date; regenerate it (see this test's javadoc)");
    }

    static String render(ToolProfile profile) {
        return "# Tools\n\n" + "Generated from the registered tool specs by `ToolsReferenceTest`; do not edit by hand.\n\n"
                + section("Native profile", profile).substring(1);
    }

    /**
     * What server-memory's answers carry when its MEMORY_FILE_PATH import failed: not in any tool's schema, so said
     * here, with the note as the code writes it.
     */
    static String serverMemoryImportNote() {
        java.nio.file.Path file = java.nio.file.Path.of("/home/me/memory.jsonl");
        return "\nWhen `MEMORY_FILE_PATH` is set and its file could not be imported at start (not UTF-8 text, a directory, the"
                + " store failing), the server still starts and answers from what its store holds, and the first answer of"
                + " each session carries one more text block after the JSON, which stays exactly server-memory's (so does the"
                + " structured content). The initialize result's instructions cannot say it: the server answers initialize"
                + " before its store is open and the import has run. For a file that is not UTF-8:\n\n> "
                + dev.engram.mcp.profile.servermemory.ImportAtStart.note(file, file + " is not UTF-8 text (server-memory"
                + " writes its memory.jsonl as UTF-8); is it the right file?") + "\n";
    }

    static String section(String title, ToolProfile profile) {
        return section(title, profile, "");
    }

    /** One profile's section: instructions, resources, prompts, {@code notes} (Markdown), then each tool with its arguments. */
    @SuppressWarnings("unchecked")
    static String section(String title, ToolProfile profile, String notes) {
        StringBuilder sb = new StringBuilder("\n## ").append(title).append("\n\nServer instructions:\n\n");
        profile.instructions().lines().forEach(l -> sb.append("> ").append(l).append('\n'));
        sb.append("\nResources: ");
        sb.append(String.join(", ", profile.resources().stream()
                .map(r -> "`" + r.resource().uri() + "` (" + r.resource().mimeType() + ")").toList())).append("\n");
        sb.append("\nPrompts: ");
        sb.append(String.join(", ", profile.prompts().stream()
                .map(p -> "`" + p.prompt().name() + "` (" + p.prompt().description() + ")").toList())).append("\n");
        sb.append(notes);
        for (ToolHandler h : profile.tools()) {
            Tool t = h.definition();
            ToolAnnotations a = t.annotations();
            sb.append("\n### `").append(t.name()).append("`\n\n").append(t.description()).append("\n\n")
                    .append(a.readOnlyHint() ? "read-only" : a.destructiveHint() ? "destructive" : "writes")
                    .append(a.idempotentHint() ? ", idempotent" : "").append("\n\n")
                    .append("| argument | type | required | description |\n|---|---|---|---|\n");
            Map<String, Map<String, Object>> props = (Map<String, Map<String, Object>>) t.inputSchema().get("properties");
            List<String> required = (List<String>) t.inputSchema().getOrDefault("required", List.of());
            props.forEach((name, p) -> {
                String type = String.valueOf(p.get("type"));
                if (p.get("enum") instanceof List<?> values) type = String.join(" \\| ", values.stream().map(String::valueOf).toList());
                if (p.get("minimum") != null) type += " " + p.get("minimum") + ".." + p.get("maximum");
                if ("array".equals(p.get("type"))) {
                    Map<String, Object> items = (Map<String, Object>) p.get("items");
                    type = "object".equals(items.get("type"))
                            ? "{" + String.join(", ", (List<String>) items.get("required")) + "}[]" : "string[]";
                }
                sb.append("| `").append(name).append("` | ").append(type).append(" | ")
                        .append(required.contains(name) ? "yes" : "").append(" | ")
                        .append(String.valueOf(p.get("description")).replace("|", "\\|")).append(" |\n");
            });
        }
        return sb.toString();
    }
}
