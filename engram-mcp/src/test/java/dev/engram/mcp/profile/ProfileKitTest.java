package dev.engram.mcp.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The profile kit from the outside: a profile built only from it, over the in-memory engine. */
class ProfileKitTest {
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private final ToolProfile probe = ProbeProfile.create(ProfileContext.of(engine, "default"),
            JsonText.standard());

    private CallToolResult call(String tool, Map<String, Object> arguments) {
        ToolHandler h = probe.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, arguments);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    private static String read(ToolProfile profile, String uri) {
        return contents(profile, uri).text();
    }

    private static TextResourceContents contents(ToolProfile profile, String uri) {
        SyncResourceSpecification spec = profile.resources().stream()
                .filter(r -> r.resource().uri().equals(uri)).findFirst().orElseThrow();
        return (TextResourceContents) spec.readHandler().apply(null, new ReadResourceRequest(uri)).contents().get(0);
    }

    private static String prompt(ToolProfile profile, String name, Map<String, Object> arguments) {
        SyncPromptSpecification spec = profile.prompts().stream()
                .filter(p -> p.prompt().name().equals(name)).findFirst().orElseThrow();
        return ((TextContent) spec.promptHandler().apply(null, new GetPromptRequest(name, arguments))
                .messages().get(0).content()).text();
    }

    @Test
    void toolsReadTheZoneFromTheArgumentTheProfileNames() {
        CallToolResult saved = call("save_note", Map.of("text", "The build needs Java 17 or newer.", "memory_zone", "alpha"));
        assertFalse(saved.isError(), text(saved));
        assertTrue(text(saved).startsWith("saved ") && text(saved).endsWith(" in alpha"), text(saved));
        assertEquals("1 notes", text(call("count_notes", Map.of("memory_zone", "alpha"))));
        assertEquals("0 notes", text(call("count_notes", Map.of())), "no zone argument: the server's default zone");
        // a name the store could not hold is refused under the profile's own argument name, quoted in short
        CallToolResult bad = call("count_notes", Map.of("memory_zone", "Bad Zone!"));
        assertTrue(bad.isError());
        assertTrue(text(bad).startsWith("memory_zone 'Bad Zone!' is not a valid zone name"), text(bad));
        CallToolResult huge = call("count_notes", Map.of("memory_zone", "z".repeat(100_000)));
        assertTrue(huge.isError());
        assertTrue(text(huge).startsWith("memory_zone '" + "z".repeat(40) + "…' (100000 characters) is not a valid zone name"), text(huge));
    }

    @Test
    void argumentsAreValidatedByTheSharedToolArgs() {
        CallToolResult nativeName = call("count_notes", Map.of("zone", "alpha"));
        assertTrue(nativeName.isError());
        assertEquals("zone is not an argument of count_notes; it accepts: memory_zone",
                text(nativeName));
        CallToolResult missing = call("save_note", Map.of());
        assertTrue(missing.isError());
        assertTrue(text(missing).startsWith("text is required: What to keep"), text(missing));
    }

    @Test
    void aResourceThatThrowsIsAnsweredWithTheGuardsNote() {
        assertEquals("0 notes", read(probe, "probe://count"));
        String note = read(probe, "probe://broken");
        assertTrue(note.matches("probe://broken is unavailable right now \\(ref [0-9a-z]{6}\\)"), note);
    }

    @Test
    void aPromptThatThrowsIsAnsweredWithTheGuardsNote() {
        assertEquals("0 notes", prompt(probe, "probe", null));
        Map<String, Object> fail = new LinkedHashMap<>();
        fail.put("fail", "yes");
        String note = prompt(probe, "probe", fail);
        assertTrue(note.matches("The Probe briefing is unavailable right now \\(ref [0-9a-z]{6}\\)"), note);
    }

    @Test
    void theNativeProfileUsesTheSameGuards() {
        Supplier<Engine> broken = () -> {
            throw new IllegalStateException("the store did not open");
        };
        ToolProfile failing = NativeProfile.create(new ProfileContext(broken, "default"),
                JsonText.standard());
        assertTrue(read(failing, "engram://primer").startsWith("engram://primer is unavailable right now (ref "));
        assertTrue(read(failing, "engram://stats").startsWith("engram://stats is unavailable right now (ref "));
        // the note is labelled as what it is, not as the JSON the resource serves when it works
        assertEquals("text/plain", contents(failing, "engram://stats").mimeType());
        assertEquals("application/json", contents(NativeProfile.create(ProfileContext.of(TestEngines.inMemory(
                java.time.Clock.systemUTC()), "default"), JsonText.standard()), "engram://stats").mimeType());
        assertTrue(prompt(failing, "briefing", Map.of("task", "x"))
                .startsWith("The Engram briefing is unavailable right now (ref "));
    }

    @Test
    void theRegistryServesAKitProfileLikeAnyOther() {
        Map<String, ProfileRegistry.Factory> factories = new LinkedHashMap<>();
        factories.put("native", NativeProfile::create);
        factories.put("probe", ProbeProfile::create);
        ProfileRegistry registry = new ProfileRegistry(factories);
        ToolProfile built = registry.create("probe", ProfileContext.of(engine, "default"),
                JsonText.standard());
        assertEquals("probe", built.name());
        assertEquals(2, built.tools().size());
        Map<?, ?> properties = (Map<?, ?>) built.tools().get(0).definition().inputSchema().get("properties");
        assertEquals(java.util.Set.of("text", "memory_zone"), properties.keySet());
    }
}
