package dev.engram.cli;

import dev.engram.proxy.ProxyRuntime;
import dev.engram.proxy.stats.Report;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "health", mixinStandardHelpOptions = true, description = "Start every upstream once: connected?, tools discovered vs exposed, why any are hidden.")
final class ProxyHealthSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        try (ProxyRuntime runtime = main.proxyRuntime(config, () -> {
            throw new IllegalStateException("health does not surface memories");
        })) {
            runtime.connectAll();
            Report r = runtime.health();
            main.printer(config).print(r.text().stripTrailing(), r.data());
            return runtime.allConnected() ? 0 : 1;
        }
    }
}
