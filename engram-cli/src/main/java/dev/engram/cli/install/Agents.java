package dev.engram.cli.install;

import dev.engram.cli.install.Agent.Format;
import dev.engram.cli.install.Agent.Hooks;
import dev.engram.cli.install.Agent.Places;
import dev.engram.cli.install.Agent.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The agents {@code engram init} knows, with each one's config locations and format as its own
 * documentation gives them (toon-memory's installer list, checked against the agents' docs). A null
 * location means the agent has no config file at that scope.
 */
public final class Agents {
    private Agents() {
    }

    private static final List<String> SERVERS = List.of("mcpServers");

    private static Function<Places, Path> project(String... parts) {
        return p -> resolve(p.project(), parts);
    }

    private static Function<Places, Path> home(String... parts) {
        return p -> resolve(p.home(), parts);
    }

    private static Function<Places, List<Path>> projectMarkers(String... dirs) {
        return p -> java.util.Arrays.stream(dirs).map(d -> p.project().resolve(d)).toList();
    }

    private static Function<Places, List<Path>> homeMarkers(String... dirs) {
        return p -> java.util.Arrays.stream(dirs).map(d -> resolve(p.home(), d.split("/"))).toList();
    }

    private static Path resolve(Path base, String... parts) {
        Path out = base;
        for (String part : parts) out = out.resolve(part);
        return out;
    }

    /** A Claude-shaped JSON config ({@code mcpServers}) at {@code localFile} / {@code homeFile} (null: none at that scope). */
    private static Agent standard(String name, List<String> aliases, String localFile, String localMarker, String homeFile,
                                  String homeMarker) {
        return new Agent(name, aliases, Format.JSON, SERVERS, Shape.STANDARD,
                localFile == null ? null : project(localFile.split("/")),
                homeFile == null ? null : home(homeFile.split("/")),
                localFile == null ? null : projectMarkers(localMarker),
                homeFile == null ? null : homeMarkers(homeMarker), null);
    }

    /** Every agent, in the order they are listed and processed. */
    public static final List<Agent> ALL = List.of(
            new Agent("claude", List.of("claude-code"), Format.JSON, SERVERS, Shape.STANDARD,
                    project(".mcp.json"), home(".claude.json"),
                    projectMarkers(".claude"), homeMarkers(".claude"),
                    new Hooks(project(".claude", "settings.json"), home(".claude", "settings.json"), "SessionStart", "PostToolUse", "Stop", false,
                            HookShell.BASH_OR_CMD)),
            standard("cursor", List.of(), ".cursor/mcp.json", ".cursor", ".cursor/mcp.json", ".cursor"),
            new Agent("codex", List.of("codex-cli"), Format.TOML, List.of("mcp_servers"), Shape.TOML_TABLE,
                    project(".codex", "config.toml"), p -> p.codexHome().resolve("config.toml"),
                    projectMarkers(".codex"), p -> List.of(p.codexHome()),
                    new Hooks(project(".codex", "hooks.json"), p -> p.codexHome().resolve("hooks.json"), "SessionStart", "PostToolUse", "Stop", false,
                            HookShell.CMD_BARE)),
            new Agent("gemini", List.of("gemini-cli"), Format.JSON, SERVERS, Shape.STANDARD,
                    project(".gemini", "settings.json"), home(".gemini", "settings.json"),
                    projectMarkers(".gemini"), homeMarkers(".gemini"),
                    new Hooks(project(".gemini", "settings.json"), home(".gemini", "settings.json"), "SessionStart", "AfterTool", "AfterAgent", true,
                            HookShell.POWERSHELL)),
            // OpenCode's hooks are plugin modules: Engram's own goes where OpenCode loads local plugins from
            new Agent("opencode", List.of(), Format.JSONC, List.of("mcp"), Shape.OPENCODE,
                    project("opencode.json"), p -> p.xdgConfig().resolve("opencode").resolve("opencode.json"),
                    projectMarkers(".opencode"), p -> List.of(p.xdgConfig().resolve("opencode")),
                    Hooks.plugin(project(".opencode", "plugins", OpenCodePlugin.FILE),
                            p -> p.xdgConfig().resolve("opencode").resolve("plugins").resolve(OpenCodePlugin.FILE))),
            new Agent("vscode", List.of("copilot", "vscode-copilot"), Format.JSONC, List.of("servers"), Shape.VSCODE,
                    project(".vscode", "mcp.json"), p -> p.vscodeUser().resolve("mcp.json"),
                    projectMarkers(".vscode"), p -> List.of(p.vscodeUser()), null),
            standard("windsurf", List.of(), null, null, ".codeium/windsurf/mcp_config.json", ".codeium/windsurf"),
            new Agent("cline", List.of(), Format.JSON, SERVERS, Shape.STANDARD, null,
                    p -> p.vscodeUser().resolve("globalStorage").resolve("saoudrizwan.claude-dev").resolve("settings")
                            .resolve("cline_mcp_settings.json"),
                    null, p -> List.of(p.vscodeUser().resolve("globalStorage").resolve("saoudrizwan.claude-dev")), null),
            // Continue reads every JSON MCP file in mcpServers/ in the same shape as Claude's: Engram gets a file of its own
            standard("continue", List.of(), ".continue/mcpServers/engram.json", ".continue", ".continue/mcpServers/engram.json", ".continue"),
            new Agent("zed", List.of(), Format.JSONC, List.of("context_servers"), Shape.ZED,
                    project(".zed", "settings.json"), p -> p.windows()
                            ? Path.of(p.env().getOrDefault("APPDATA", p.home().resolve("AppData").resolve("Roaming").toString()))
                                    .resolve("Zed").resolve("settings.json")
                            : p.xdgConfig().resolve("zed").resolve("settings.json"),
                    projectMarkers(".zed"), p -> List.of(p.xdgConfig().resolve("zed")), null),
            standard("kiro", List.of(), ".kiro/settings/mcp.json", ".kiro", ".kiro/settings/mcp.json", ".kiro"),
            // the Antigravity CLI (agy): .agents/ per workspace, ~/.gemini/config/ for the user; hooks in hooks.json beside
            new Agent("antigravity", List.of("agy", "antigravity-cli"), Format.JSON, SERVERS, Shape.STANDARD,
                    project(".agents", "mcp_config.json"), home(".gemini", "config", "mcp_config.json"),
                    projectMarkers(".agents"), homeMarkers(".gemini/config"),
                    Hooks.antigravity(project(".agents", "hooks.json"), home(".gemini", "config", "hooks.json"))),
            // the Antigravity IDE keeps its agent's servers apart, under ~/.gemini/antigravity/
            standard("antigravity-ide", List.of(), null, null, ".gemini/antigravity/mcp_config.json", ".gemini/antigravity"),
            standard("roo", List.of("roo-code"), ".roo/mcp.json", ".roo", null, null),
            standard("kilocode", List.of("kilo-code"), ".kilocode/mcp.json", ".kilocode", null, null),
            standard("qwen", List.of("qwen-code"), ".qwen/settings.json", ".qwen", ".qwen/settings.json", ".qwen"),
            standard("junie", List.of(), ".junie/mcp/mcp.json", ".junie", ".junie/mcp/mcp.json", ".junie"),
            new Agent("amp", List.of(), Format.JSONC, List.of("amp.mcpServers"), Shape.STANDARD,
                    project(".amp", "settings.json"), p -> p.xdgConfig().resolve("amp").resolve("settings.json"),
                    projectMarkers(".amp"), p -> List.of(p.xdgConfig().resolve("amp")), null),
            // OpenClaw's one config, JSON5, servers under mcp.servers (its McpServerSchema takes enabled as toon writes it)
            new Agent("openclaw", List.of(), Format.JSON5, List.of("mcp", "servers"), Shape.OPENCLAW, null,
                    home(".openclaw", "openclaw.json"), null, homeMarkers(".openclaw"), null),
            // Kimi CLI (MoonshotAI/kimi-cli): the user's ~/.kimi/mcp.json
            standard("kimi", List.of("kimi-cli"), null, null, ".kimi/mcp.json", ".kimi"),
            // Goose: an entry of the extensions map in its YAML config
            new Agent("goose", List.of(), Format.YAML, List.of("extensions"), Shape.GOOSE, null,
                    p -> p.gooseConfig().resolve("config.yaml"), null, p -> List.of(p.gooseConfig()), null),
            // Grok Build (xAI): [mcp_servers.NAME] in .grok/config.toml per repository and $GROK_HOME/config.toml for the user
            new Agent("grok", List.of("grok-build"), Format.TOML, List.of("mcp_servers"), Shape.TOML_TABLE,
                    project(".grok", "config.toml"), p -> p.grokHome().resolve("config.toml"),
                    projectMarkers(".grok"), p -> List.of(p.grokHome()), null),
            // Trae reads a project's .trae/mcp.json once "Enable Project MCP" is on in its settings
            standard("trae", List.of(), ".trae/mcp.json", ".trae", null, null),
            // Aider is known so that asking for it says why nothing is written, instead of "not an agent"
            new Agent("aider", List.of(), Format.JSON, SERVERS, Shape.STANDARD, null, null, null, null, null,
                    "Aider has no MCP client (Aider-AI/aider#2525 is still open) and no hooks, so nothing engram init could write"
                            + " would reach it; toon-memory's CONVENTIONS.md only tells the model to call tools Aider does not have."
                            + " Hand Aider memories yourself: `engram recall QUERY > notes.md`, then /read notes.md in Aider"));

    public static java.util.Optional<Agent> find(String name) {
        String n = name.strip().toLowerCase(java.util.Locale.ROOT);
        return ALL.stream().filter(a -> a.named(n)).findFirst();
    }

    public static List<String> names() {
        return ALL.stream().map(Agent::name).toList();
    }
}
