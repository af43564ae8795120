package dev.engram.cli;

import dev.engram.engine.StatsResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "stats", mixinStandardHelpOptions = true, description = "Counts and health of the store (one zone with --zone).")
final class StatsSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            StatsResult r = opened.engine().stats(config.zone());
            root.main().printer(config).print(root.main().renderers().text().stats(r),
                    root.main().renderers().structured().stats(r));
        }
        return 0;
    }
}
