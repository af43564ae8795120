package dev.engram.cli.hook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each host's post-tool event read into one shape; what cannot be read is said plainly. */
class PostToolEventTest {
    private static final JsonText JSON = JsonText.standard();

    private static PostToolEvent parse(Map<String, Object> event) {
        return PostToolEvent.parse(JSON.write(event), null, JSON::readObject);
    }

    @Test
    void claudeCodesReadNamesTheFileRelativeToItsWorkingDirectoryAndSizesTheResponse() {
        PostToolEvent e = parse(Map.of("session_id", "s", "cwd", "/repo", "hook_event_name", "PostToolUse", "tool_name", "Read",
                "tool_input", Map.of("file_path", "/repo/src/A.java"),
                "tool_response", Map.of("type", "text", "file", Map.of("filePath", "/repo/src/A.java", "content", "abcdef"))));
        assertEquals(PostToolEvent.Host.CLAUDE, e.host());
        assertEquals("Read", e.tool());
        assertEquals("src/A.java", e.file());
        assertEquals("/repo/src/A.java".length() + "text".length() + 6, e.responseChars());
        assertEquals("s", e.session());
    }

    @Test
    void codexIsToldApartByItsTurnIdAndAPathOutsideTheWorkingDirectoryStaysAsGiven() {
        PostToolEvent e = parse(Map.of("turn_id", "t", "cwd", "/repo", "hook_event_name", "PostToolUse", "tool_name", "Bash",
                "tool_input", Map.of("command", "ls /etc"), "tool_response", "out"));
        assertEquals(PostToolEvent.Host.CODEX, e.host());
        assertNull(e.file());
        assertEquals("ls /etc", e.arguments().get("command"));
        assertEquals("/etc/hosts", PostToolEvent.relative("/etc/hosts", "/repo"));
    }

    @Test
    void cursorsEventsAreReadIntoTheSameShape() {
        PostToolEvent edit = parse(Map.of("conversation_id", "c", "workspace_roots", List.of("/w"), "hook_event_name", "afterFileEdit",
                "file_path", "/w/lib/x.ts", "edits", List.of()));
        assertEquals(PostToolEvent.Host.CURSOR, edit.host());
        assertEquals("Edit", edit.tool());
        assertEquals("lib/x.ts", edit.file());
        PostToolEvent mcp = parse(Map.of("conversation_id", "c", "hook_event_name", "afterMCPExecution", "tool_name", "query",
                "tool_input", "{\"sql\": \"select 1\"}", "result_json", "{\"rows\": 1}"));
        assertEquals("select 1", mcp.arguments().get("sql"));
        assertEquals(11, mcp.responseChars());
        PostToolEvent forced = PostToolEvent.parse(JSON.write(Map.of("tool_name", "Read", "tool_input", Map.of())),
                PostToolEvent.Host.CURSOR, JSON::readObject);
        assertEquals(PostToolEvent.Host.CURSOR, forced.host());
    }

    @Test
    void whatCannotBeReadIsSaidWithWhatToSend() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostToolEvent.parse("  ", null, JSON::readObject))
                .getMessage().startsWith("stdin held nothing"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostToolEvent.parse("{oops", null, JSON::readObject))
                .getMessage().startsWith("stdin is not a JSON object"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse(Map.of("hook_event_name", "Stop")))
                .getMessage().startsWith("hook_event_name is 'Stop'; engram hook post-tool handles PostToolUse"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse(Map.of("hook_event_name", "PostToolUse")))
                .getMessage().startsWith("the event has no tool_name"));
    }
}
