package dev.engram.mcp.profile;

import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.engine.StatsResult;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;

/**
 * A profile made only from the kit, the way issue 15 says a new one should be: a list of tool classes
 * plus a renderer, a zone argument of its own name, guarded resources and prompts.
 */
final class ProbeProfile {
    static final String ZONE_ARGUMENT = "memory_zone";

    private ProbeProfile() {
    }

    static ToolProfile create(ProfileContext shared, JsonText json) {
        ProfileContext context = shared.withZoneArgument(ZONE_ARGUMENT);
        ProbeRenderer renderer = new ProbeRenderer();
        List<ToolHandler> tools = List.of(new SaveTool(context, renderer), new CountTool(context, renderer));
        var count = Guarded.resource(Resource.builder("probe://count", "count").mimeType("text/plain").build(),
                () -> renderer.count(context.engine().stats(context.defaultZone())));
        var broken = Guarded.resource(Resource.builder("probe://broken", "broken").mimeType("text/plain").build(), () -> {
            throw new IllegalStateException("the probe resource always fails");
        });
        var prompt = Guarded.prompt(Prompt.builder("probe").title("Probe briefing").description("d")
                .arguments(List.of(PromptArgument.builder("fail").required(false).build())).build(), arguments -> {
                    if (arguments.containsKey("fail")) throw new IllegalStateException("asked to fail");
                    return renderer.count(context.engine().stats(context.defaultZone()));
                });
        return new ToolProfile("probe", "Probe instructions", tools, List.of(count, broken), List.of(prompt));
    }

    /** The profile's one renderer: its whole presentation. */
    record ProbeRenderer() {
        String saved(RememberResult r) {
            return "saved " + r.memory().key() + " in " + r.memory().zone();
        }

        String count(StatsResult s) {
            return s.total() + " notes";
        }
    }

    static final class SaveTool implements ToolHandler {
        private final ProfileContext context;
        private final ProbeRenderer renderer;
        private final Tool definition;

        SaveTool(ProfileContext context, ProbeRenderer renderer) {
            this.context = context;
            this.renderer = renderer;
            this.definition = Tool.builder("save_note", JsonSchema.input()
                            .string("text", "What to keep", "the build needs Java 17")
                            .string(context.zoneArgument(), "Namespace; default: the server's zone", "my-project").required("text").build())
                    .description("Keeps a note").annotations(ToolHints.writes(false)).build();
        }

        @Override
        public Tool definition() {
            return definition;
        }

        @Override
        public ToolReply call(ToolArgs args) {
            RememberResult r = context.engine().remember(new RememberCommand(args.text("text"), null, null, null,
                    context.zone(args), null, null, null, null, null, null, false, null, null));
            return new ToolReply(renderer.saved(r), Map.of("key", r.memory().key()));
        }
    }

    static final class CountTool implements ToolHandler {
        private final ProfileContext context;
        private final ProbeRenderer renderer;
        private final Tool definition;

        CountTool(ProfileContext context, ProbeRenderer renderer) {
            this.context = context;
            this.renderer = renderer;
            this.definition = Tool.builder("count_notes", JsonSchema.input()
                            .string(context.zoneArgument(), "Namespace; default: the server's zone", "my-project").build())
                    .description("Counts notes").annotations(ToolHints.readOnly()).build();
        }

        @Override
        public Tool definition() {
            return definition;
        }

        @Override
        public ToolReply call(ToolArgs args) {
            StatsResult s = context.engine().stats(context.zone(args));
            return new ToolReply(renderer.count(s), Map.of("total", s.total()));
        }
    }
}
