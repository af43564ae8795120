package dev.engram.cli;

import dev.engram.engine.LinkSpec;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.memory.Importance;
import dev.engram.memory.Origin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "remember", mixinStandardHelpOptions = true, description = "Store a memory (same options as the remember tool).")
final class RememberSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Parameters(arity = "1..*", paramLabel = "CONTENT", description = "The memory, 1-3 sentences")
    List<String> content;

    @Option(names = "--key") String key;
    @Option(names = "--type", description = "decision, pattern, error, warning, preference, procedure, fact, relation, entity") String type;
    @Option(names = "--tags", split = "[,;]", description = "Comma-separated tags") List<String> tags;
    @Option(names = "--importance", description = "critical, high, medium or low") String importance;
    @Option(names = "--ttl", description = "90m, 24h, 7d, 2w or a date") String ttl;
    @Option(names = "--link", description = "type:key or key (repeatable)") List<String> links = new ArrayList<>();
    @Option(names = "--file") String file;
    @Option(names = "--path-scope") String pathScope;
    @Option(names = "--origin", description = "human (default here), agent or inferred") String origin;
    @Option(names = "--replace", description = "Overwrite the content stored under an existing key") boolean replace;
    @picocli.CommandLine.Mixin RemoteOptions remote = new RemoteOptions();

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        if (remote.active()) return remote(config);
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            RememberResult r = opened.engine().remember(new RememberCommand(String.join(" ", content), key,
                    type == null ? null : TypeAliases.TOON_MEMORY.parse("--type", type), tags, config.defaultZone(),
                    importance == null ? null : Importance.parse("--importance", importance), ttl,
                    links.stream().map(LinkSpec::parse).toList(), file, pathScope,
                    // a person typed this: human origin unless told otherwise
                    origin == null ? Origin.HUMAN : Origin.parse("--origin", origin), replace, null, null));
            root.main().printer(config).print(root.main().renderers().text().remember(r),
                    root.main().renderers().structured().remember(r));
        }
        return 0;
    }

    /** The same call through a running server's remember tool; the options are checked here as locally. */
    private Integer remote(EngramConfig config) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("content", String.join(" ", content));
        if (key != null) args.put("key", key);
        if (type != null) args.put("type", TypeAliases.TOON_MEMORY.parse("--type", type).wireName());
        if (tags != null) args.put("tags", tags);
        if (config.zone() != null) args.put("zone", config.zone());
        if (importance != null) args.put("importance", Importance.parse("--importance", importance).wireName());
        if (ttl != null) args.put("ttl", ttl);
        if (!links.isEmpty()) args.put("links", links);
        if (file != null) args.put("file", file);
        if (pathScope != null) args.put("path_scope", pathScope);
        args.put("origin", (origin == null ? Origin.HUMAN : Origin.parse("--origin", origin)).wireName());
        if (replace) args.put("replace", true);
        try (RemoteServer server = remote.connect(root.main(), config)) {
            RemoteServer.ToolAnswer a = server.callOrFail("remember", args);
            root.main().printer(config).print(a.text(), a.structured());
        }
        return 0;
    }
}
