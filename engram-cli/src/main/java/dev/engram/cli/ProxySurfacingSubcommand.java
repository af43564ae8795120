package dev.engram.cli;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.UpstreamConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Switches memories under proxied results on or off, for the whole proxy or one upstream, in
 * proxy.json: a running proxy follows the file within a second. Without on/off it shows the switches.
 */
@Command(name = "surfacing", mixinStandardHelpOptions = true, description = {"Switch memories under proxied results on or off"
        + " (kept in proxy.json; a running proxy follows within a second).",
        "  engram proxy surfacing off              all upstreams",
        "  engram proxy surfacing off --server fs  one upstream",
        "  engram proxy surfacing                  show the switches"})
final class ProxySurfacingSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Parameters(index = "0", arity = "0..1", paramLabel = "on|off")
    String state;

    @Option(names = "--server", paramLabel = "NAME", description = "Only this upstream")
    String server;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        ProxyConfigFile file = new ProxyConfigFile(config.storeDir(), main.json().mapper());
        ProxyConfig pc = file.load();
        String change = "";
        if (state != null) {
            boolean on = switch (state.toLowerCase(Locale.ROOT)) {
                case "on", "true", "enable" -> true;
                case "off", "false", "disable" -> false;
                default -> throw new ConfigException("surfacing", state, "must be on or off");
            };
            if (server == null) {
                pc = pc.withSurfacing(on);
                change = "Surfacing " + (on ? "on" : "off") + " for the proxy";
            } else {
                UpstreamConfig u = pc.find(server).orElseThrow(() -> new ConfigException("--server", server,
                        "is not an upstream; `engram proxy list` shows them"));
                pc = pc.replacing(u.withSurfacing(on));
                change = "Surfacing " + (on ? "on" : "off") + " for upstream '" + server + "'";
            }
            file.save(pc);
            change += " (saved in " + file.path() + "; a running proxy follows within a second).\n";
        } else if (server != null) {
            throw new ConfigException("--server", server, "needs on or off: engram proxy surfacing off --server " + server);
        }
        boolean env = main.configLoader().proxySettings().surfacing().enabled();
        StringBuilder sb = new StringBuilder(change);
        sb.append("proxy: ").append(pc.surfacingEnabled() ? "on" : "off").append('\n');
        List<Map<String, Object>> rows = new ArrayList<>();
        for (UpstreamConfig u : pc.upstreams()) {
            boolean effective = env && pc.surfacingEnabled() && u.surfacing();
            sb.append("  ").append(u.name()).append(": ").append(u.surfacing() ? "on" : "off")
                    .append(effective == u.surfacing() ? "" : " (in effect: off)").append('\n');
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", u.name());
            row.put("surfacing_enabled", u.surfacing());
            row.put("effective", effective);
            rows.add(row);
        }
        if (!env) sb.append("ENGRAM_PROXY_SURFACING__ENABLED=false in this environment keeps surfacing off wherever it is set.\n");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("surfacing_enabled", pc.surfacingEnabled());
        data.put("environment_enabled", env);
        data.put("upstreams", rows);
        main.printer(config).print(sb.toString().stripTrailing(), data);
        return 0;
    }
}
