package dev.engram.cli;

import dev.engram.proxy.config.ProxyConfigFile;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove an upstream server from <store>/proxy.json.")
final class ProxyRemoveSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Override
    public Integer call() {
        proxy.root.textOnly("proxy remove", "it prints one line saying what it removed");
        Main main = proxy.root.main();
        ProxyConfigFile file = new ProxyConfigFile(proxy.root.config().storeDir(), main.json().mapper());
        file.save(file.load().without(name));
        main.out().println("Removed upstream '" + name + "'.");
        return 0;
    }
}
