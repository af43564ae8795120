package dev.engram.cli;

import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.stats.Report;
import dev.engram.proxy.stats.StatsReports;
import dev.engram.proxy.surfacing.ThresholdTuner;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "tune", mixinStandardHelpOptions = true, description = "Tuning recommendations from follow-ups and feedback (preview; edit with proxy add/remove).")
final class ProxyTuneSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        EngramConfig config = proxy.root.config();
        try (ProxyStats stats = new ProxyStats(config.storeDir(), Clock.systemUTC())) {
            double minScore = stats.tuned(ThresholdTuner.KEY).orElse(proxy.root.main().configLoader().proxySettings().surfacing().minScore());
            Report r = new StatsReports(stats).tuningRecommendations(minScore);
            proxy.root.main().printer(config).print(r.text().stripTrailing(), r.data());
        }
        return 0;
    }
}
