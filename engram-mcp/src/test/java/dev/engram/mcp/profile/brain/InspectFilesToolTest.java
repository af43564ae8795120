package dev.engram.mcp.profile.brain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** inspect_files stays inside the working directory and bounds its walks. */
class InspectFilesToolTest {
    @TempDir
    Path tmp;
    private Path root;
    private Path outside;
    private ToolHandler tool;

    @BeforeEach
    void setUp() throws Exception {
        root = Files.createDirectories(tmp.resolve("work"));
        outside = Files.createDirectories(tmp.resolve("secret"));
        Files.writeString(outside.resolve("passwd"), "root:x:0:0\n");
        Files.writeString(root.resolve("notes.txt"), "root cause: the cache\n");
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
        BrainContext c = new BrainContext(ProfileContext.of(engine, "default"), Optional.empty(), clock, JsonText.standard());
        tool = new InspectFilesTool(c, root).tool();
    }

    private CallToolResult call(List<String> paths) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("file_paths", paths);
        args.put("information_needed", "users");
        args.put("include_lines", true);
        args.put("keywords", List.of("root"));
        return ToolAdapter.call(tool, args);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    private void refused(String path) {
        CallToolResult r = call(List.of("notes.txt", path));
        assertTrue(Boolean.TRUE.equals(r.isError()), text(r));
        assertTrue(text(r).contains("file_paths[1]") && text(r).contains("outside the server's working directory")
                && text(r).contains("relative to it"), text(r));
        assertFalse(text(r).contains("root:x"), "nothing outside is read: " + text(r));
    }

    /** Over HTTP the files are no zone's: a token bound to zones is refused, one with every right reads them, a local caller too. */
    @Test
    void onlyACallerWithEveryRightOnEveryZoneReadsFilesOverHttp() {
        Grants zoneReader = new Grants(Map.of("team", Right.READ), null);
        CallToolResult refused = Access.as(zoneReader, () -> call(List.of("notes.txt")));
        assertTrue(Boolean.TRUE.equals(refused.isError()), text(refused));
        assertTrue(text(refused).contains("access denied") && text(refused).contains("every zone"), text(refused));
        assertFalse(text(refused).contains("root cause") || text(refused).contains("team"), text(refused));
        Grants teamAdmin = new Grants(Map.of("team", Right.ADMIN), Right.READ);
        assertTrue(Boolean.TRUE.equals(Access.as(teamAdmin, () -> call(List.of("notes.txt"))).isError()), "reading every zone is not enough");
        assertTrue(text(Access.as(Grants.FULL, () -> call(List.of("notes.txt")))).contains("root cause"));
        assertTrue(text(call(List.of("notes.txt"))).contains("root cause"), "stdio and the command line bind no caller");
    }

    @Test
    void pathsOutsideTheWorkingDirectoryAreRefused() throws Exception {
        refused(outside.resolve("passwd").toString());
        refused("../secret/passwd");
        refused("sub/../../secret/passwd");
        Files.createSymbolicLink(root.resolve("link"), outside);
        refused("link/passwd");
    }

    @Test
    void insideFilesAreReadAndALinkOutOfAWalkedDirectoryIsNotFollowed() throws Exception {
        Files.createSymbolicLink(root.resolve("out.txt"), outside.resolve("passwd"));
        CallToolResult r = call(List.of("."));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        assertTrue(text(r).contains("root cause: the cache") && text(r).contains("notes.txt"), text(r));
        assertFalse(text(r).contains("root:x"), text(r));
        CallToolResult abs = call(List.of(root.resolve("notes.txt").toString()));
        assertFalse(Boolean.TRUE.equals(abs.isError()), "an absolute path inside is fine: " + text(abs));
    }

    @Test
    void aHugeTreeIsCutWithAPlainReason() throws Exception {
        Path big = Files.createDirectories(root.resolve("big"));
        for (int i = 0; i < InspectFilesTool.MAX_FILES + 5; i++) Files.writeString(big.resolve("f" + i + ".txt"), "root " + i + "\n");
        CallToolResult r = call(List.of("big"));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> results = (List<Map<String, Object>>) ((Map<String, Object>) r.structuredContent()).get("results");
        assertEquals(InspectFilesTool.MAX_FILES + 1, results.size(), "200 files and the note saying the rest was not read");
        assertTrue(text(r).contains("send a narrower directory"), text(r));
    }

    @Test
    void ioErrorsAreWords() throws Exception {
        assertEquals("x: permission denied", InspectFilesTool.plain(new java.nio.file.AccessDeniedException("x")));
        assertEquals("y: no such file or directory", InspectFilesTool.plain(new java.nio.file.NoSuchFileException("y")));
        CallToolResult r = call(List.of("missing.txt"));
        assertFalse(text(r).contains("java."), text(r));
        assertTrue(text(r).contains("no such file or directory"), text(r));
    }
}
