package dev.engram.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version (with --json: {engram, java}).")
final class VersionSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        Main main = root.main();
        if (root.global.json) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("engram", Main.version());
            v.put("java", Runtime.version().toString());
            main.out().println(main.json().write(v));
        } else {
            main.out().println("engram " + Main.version() + " (Java " + Runtime.version() + ")");
        }
        return 0;
    }
}
