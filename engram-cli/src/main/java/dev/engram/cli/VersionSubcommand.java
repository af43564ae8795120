package dev.engram.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version.")
final class VersionSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        root.main().out().println("engram " + Main.version() + " (Java " + Runtime.version() + ")");
        return 0;
    }
}
