package dev.engram.cli;

import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.stats.Report;
import dev.engram.proxy.stats.StatsReports;
import dev.engram.proxy.surfacing.ThresholdTuner;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "stats", mixinStandardHelpOptions = true, description = "Token savings, cache hits, latency, surfacing and follow-ups, from <store>/proxy-stats.db.")
final class ProxyStatsSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        EngramConfig config = proxy.root.config();
        try (ProxyStats stats = new ProxyStats(config.storeDir(), Clock.systemUTC())) {
            StatsReports reports = new StatsReports(stats);
            double minScore = stats.tuned(ThresholdTuner.KEY).orElse(proxy.root.main().configLoader().proxySettings().surfacing().minScore());
            Report calls = reports.proxyStats();
            Report surfacing = reports.surfacingStats(Map.of(), minScore);
            Report progressive = reports.progressiveStats(null);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("proxy", calls.data());
            data.put("surfacing", surfacing.data());
            data.put("progressive", progressive.data());
            proxy.root.main().printer(config).print((calls.text() + surfacing.text() + progressive.text()).stripTrailing(), data);
        }
        return 0;
    }
}
