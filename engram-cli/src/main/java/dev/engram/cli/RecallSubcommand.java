package dev.engram.cli;

import dev.engram.engine.Budget;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.memory.MemoryType;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "recall", mixinStandardHelpOptions = true, description = "Find memories (same options as the recall tool).")
final class RecallSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Parameters(arity = "0..*", paramLabel = "QUERY", description = "What you need, in a few words")
    List<String> query;

    @Option(names = "--limit") Integer limit;
    @Option(names = "--budget", description = "tiny, normal or deep") String budget;
    @Option(names = "--budget-tokens") Integer budgetTokens;
    @Option(names = "--mode", description = "ranked, index or ids") String mode;
    @Option(names = "--ids", split = "[,;]", description = "Ids or keys to fetch (mode ids)") List<String> ids;
    @Option(names = "--explain", description = "Show why each result ranks where it does") boolean explain;
    @Option(names = "--types", split = "[,;]") List<String> types;
    @Option(names = "--tags", split = "[,;]") List<String> tags;
    @Option(names = "--from", description = "Created on/after: date or age like 7d") String from;
    @Option(names = "--to") String to;
    @Option(names = "--path") String path;
    @Option(names = "--as-of") String asOf;
    @picocli.CommandLine.Mixin RemoteOptions remote = new RemoteOptions();

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        Set<MemoryType> typeSet = null;
        if (types != null) {
            typeSet = new LinkedHashSet<>();
            for (String t : types) typeSet.add(TypeAliases.TOON_MEMORY.parse("--types", t));
        }
        RecallMode recallMode = mode == null ? (ids != null && query == null ? RecallMode.IDS : null)
                : RecallMode.parse("--mode", mode);
        if (remote.active()) return remote(config, typeSet, recallMode);
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            RecallResult r = opened.engine().recall(new RecallQuery(query == null ? null : String.join(" ", query),
                    limit, budget == null ? null : Budget.parse("--budget", budget), budgetTokens, recallMode, ids,
                    explain, config.defaultZone(), typeSet, tags, from, to, path, asOf), root.main().renderers().text());
            root.main().printer(config).print(root.main().renderers().text().recall(r),
                    root.main().renderers().structured().recall(r));
        }
        return 0;
    }

    /** The same query through a running server's recall tool; the options are checked here as locally. */
    private Integer remote(EngramConfig config, Set<MemoryType> typeSet, RecallMode recallMode) {
        Map<String, Object> args = new LinkedHashMap<>();
        if (query != null) args.put("query", String.join(" ", query));
        if (limit != null) args.put("limit", limit);
        if (budget != null) args.put("budget", Budget.parse("--budget", budget).wireName());
        if (budgetTokens != null) args.put("budget_tokens", budgetTokens);
        if (recallMode != null) args.put("mode", recallMode.wireName());
        if (ids != null) args.put("ids", ids);
        if (explain) args.put("explain", true);
        if (config.zone() != null) args.put("zone", config.zone());
        if (typeSet != null) args.put("types", typeSet.stream().map(MemoryType::wireName).toList());
        if (tags != null) args.put("tags", tags);
        if (from != null) args.put("from", from);
        if (to != null) args.put("to", to);
        if (path != null) args.put("path", path);
        if (asOf != null) args.put("as_of", asOf);
        try (RemoteServer server = remote.connect(root.main(), config)) {
            RemoteServer.ToolAnswer a = server.callOrFail("recall", args);
            root.main().printer(config).print(a.text(), a.structured());
        }
        return 0;
    }
}
