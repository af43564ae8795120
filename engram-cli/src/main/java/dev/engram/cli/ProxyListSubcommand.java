package dev.engram.cli;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.EffectiveConfig;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "list", mixinStandardHelpOptions = true, description = "List the configured upstream servers (header values are not shown).")
final class ProxyListSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        ProxyConfig pc = new ProxyConfigFile(config.storeDir(), main.json().mapper()).load();
        StringBuilder sb = new StringBuilder();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (UpstreamConfig u : pc.upstreams()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", u.name());
            row.put("prefix", u.prefix());
            String where;
            if (u.transport() instanceof UpstreamTransport.Stdio s) {
                where = "stdio: " + s.command() + " " + String.join(" ", EffectiveConfig.maskArgs(s.args()))
                        + (s.passEnv().isEmpty() ? "" : " (env: " + String.join(", ", s.passEnv()) + ")");
                row.put("transport", "stdio");
                row.put("command", s.command());
                row.put("args", EffectiveConfig.maskArgs(s.args()));
                row.put("env", s.passEnv());
            } else {
                UpstreamTransport.Remote h = (UpstreamTransport.Remote) u.transport();
                // header values can be bearer tokens: names only; URL credentials and query values hidden as in config show
                where = h.label() + ": " + EffectiveConfig.maskUrl(h.url()) + (h.headers().isEmpty() ? "" : " (headers: " + String.join(", ", h.headers().keySet()) + ")");
                row.put("transport", h.id());
                row.put("url", EffectiveConfig.maskUrl(h.url()));
                row.put("headers", List.copyOf(h.headers().keySet()));
            }
            row.put("compression", u.compression().id());
            row.put("max_result_chars", u.maxResultChars());
            row.put("cache_ttl_seconds", u.cacheTtlSeconds());
            row.put("tool_overrides", u.tools().keySet().stream().sorted().toList());
            row.put("surfacing_enabled", u.surfacing());
            rows.add(row);
            sb.append(u.name()).append(" [").append(u.prefix()).append("__*] ").append(where).append(" | compression ")
                    .append(u.compression().id()).append(", max ").append(u.maxResultChars()).append(" chars, cache ")
                    .append(u.cacheTtlSeconds()).append(" s").append(u.surfacing() ? "" : ", surfacing off")
                    .append(u.tools().isEmpty() ? "" : " | overrides: " + String.join(", ", u.tools().keySet().stream().sorted().toList()))
                    .append('\n');
        }
        String text = rows.isEmpty() ? "No upstreams. Add one: engram proxy add NAME --command CMD --args \"...\" --prefix P"
                : sb.toString().stripTrailing();
        main.printer(config).print(text, Map.of("upstreams", rows));
        return 0;
    }
}
