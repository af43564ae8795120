package dev.engram.cli;

import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.mcp.profile.ToolProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "profiles", mixinStandardHelpOptions = true, description = "List the tool profiles `mcp` and `serve` can wear (--profile NAME).")
final class ProfilesSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        // no store is opened: listing what a profile offers needs none
        List<ToolProfile> profiles = root.main().registeredProfiles();
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ToolProfile p : profiles) {
            List<String> tools = p.tools().stream().map(t -> t.definition().name()).toList();
            List<String> resources = p.resources().stream().map(r -> r.resource().uri()).toList();
            List<String> prompts = p.prompts().stream().map(r -> r.prompt().name()).toList();
            boolean isDefault = p.name().equals(ProfileRegistry.DEFAULT);
            text.append(p.name()).append(isDefault ? " (default)" : "").append(": ")
                    .append(count(tools.size(), "tool")).append(", ").append(count(resources.size(), "resource"))
                    .append(", ").append(count(prompts.size(), "prompt")).append('\n')
                    .append("  tools: ").append(String.join(", ", tools)).append('\n')
                    .append("  resources: ").append(String.join(", ", resources)).append('\n')
                    .append("  prompts: ").append(String.join(", ", prompts)).append('\n');
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", p.name());
            row.put("default", isDefault);
            row.put("tool_count", tools.size());
            row.put("tools", tools);
            row.put("resources", resources);
            row.put("prompts", prompts);
            rows.add(row);
        }
        if (!ProfileRegistry.PLANNED.isEmpty()) {
            text.append("planned, not built yet: ").append(String.join(", ", ProfileRegistry.PLANNED));
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("profiles", rows);
        structured.put("planned", ProfileRegistry.PLANNED);
        new Printer(root.main().out(), root.global.json, root.main()::json).print(text.toString(), structured);
        return 0;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
