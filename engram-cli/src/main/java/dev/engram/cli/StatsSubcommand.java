package dev.engram.cli;

import dev.engram.engine.StatsResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "stats", mixinStandardHelpOptions = true, description = "Counts and health of the store (one zone with --zone).")
final class StatsSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @picocli.CommandLine.Mixin RemoteOptions remote = new RemoteOptions();

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        if (remote.active()) {
            try (RemoteServer server = remote.connect(root.main(), config)) {
                RemoteServer.ToolAnswer a = server.callOrFail("stats",
                        config.zone() == null ? java.util.Map.of() : java.util.Map.of("zone", config.zone()));
                root.main().printer(config).print(a.text(), a.structured());
            }
            return 0;
        }
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            StatsResult r = opened.engine().stats(config.zone());
            root.main().printer(config).print(root.main().renderers().text().stats(r),
                    root.main().renderers().structured().stats(r));
        }
        return 0;
    }
}
