package dev.engram.cli;

import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.ForgetResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

// annotation text must be constant: "7 days" is Engine.RESTORE_WINDOW, which CliCommandsTest checks
@Command(name = "forget", mixinStandardHelpOptions = true, description = {"Archive a memory (or delete it with --hard, bring it back with --restore).",
        "A hard delete can be restored for 7 days; after that it cannot be undone."})
final class ForgetSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Parameters(paramLabel = "KEY", description = "Memory id or key") String key;
    @Option(names = "--action", description = "soft (default), hard or restore") String action;
    @Option(names = "--hard", description = "Delete; --restore undoes it for 7 days (same as --action hard)") boolean hard;
    @Option(names = "--restore", description = "Un-archive, or undo a recent hard delete (same as --action restore)") boolean restore;
    @Option(names = "--purge", description = "Erase at once, with no undo, even a hard-deleted memory (for a secret stored by mistake)")
    boolean purge;

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        ForgetAction chosen = purge ? ForgetAction.PURGE : hard ? ForgetAction.HARD : restore ? ForgetAction.RESTORE
                : action == null ? ForgetAction.SOFT : ForgetAction.parse("--action", action);
        try (Main.OpenEngine opened = root.main().openEngine(config)) {
            ForgetResult r = opened.engine().forget(new ForgetCommand(key, config.defaultZone(), chosen));
            root.main().printer(config).print(root.main().renderers().text().forget(r),
                    root.main().renderers().structured().forget(r));
        }
        return 0;
    }
}
