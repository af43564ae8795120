package dev.engram.cli;

import dev.engram.cli.install.Agent;
import dev.engram.cli.install.Agents;
import dev.engram.cli.install.InstallManifest;
import dev.engram.cli.install.Installer;
import dev.engram.cli.install.Scope;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code engram uninstall}: takes out what {@code engram init} added, by its record; an entry edited
 * since is left and reported, a file init created goes once nothing else is in it.
 */
@Command(name = "uninstall", mixinStandardHelpOptions = true,
        description = {"Remove what `engram init` added to agents' configs.",
                "Remove what `engram init` added to agents' configs (only entries still as it",
                "wrote them), restoring each file as it was; files init created are deleted",
                "once nothing else is in them."})
final class UninstallSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--agent", split = ",", paramLabel = "NAME", description = "Agent(s) to remove Engram from (default: all)")
    List<String> agents; // null: not given (every agent)

    @Option(names = "--scope", paramLabel = "local|global", defaultValue = "local", description = "local: this project's files; global: the user's")
    String scope;

    @Option(names = "--dry-run", description = "Print what would change, write nothing")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
        Main main = root.main();
        root.textOnly("uninstall", "it prints what it removes from each agent's config, as text");
        ConfigLoader loader = main.configLoader();
        Scope s = Scope.parse(scope);
        Agent.Places places = InitSubcommand.places(loader);
        List<String> names = agents == null ? Agents.names()
                : InitSubcommand.choose(agents, s, places).stream().map(Agent::name).toList();
        java.nio.file.Path record = loader.dataDir().resolve(InstallManifest.FILE);
        // no record: nothing to take out, and no reason to create the data folder for a lock
        return InstallManifest.locked(record, dryRun || !java.nio.file.Files.exists(record), main.json()::readObject, main.json()::write,
                manifest -> new Installer(manifest, main.out()).uninstall(names, s, places, dryRun)) ? 0 : 1;
    }
}
