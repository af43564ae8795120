package dev.engram.cli;

import dev.engram.proxy.ProxyRuntime;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.stats.Report;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * `engram proxy health` for the person fixing a setup: the file checks of `config validate`, then
 * every upstream started once, with PASS or FAIL, the step a failure stopped at and its full error,
 * the tool counts and each hidden tool with the reason. Exit 1 when an upstream fails.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true, description = {"Check the proxy's setup: proxy.json, then each upstream"
        + " started once (start, initialize, tools/list): PASS or FAIL with the error, tool counts, hidden tools and why.",
        "Exit 0 when every upstream works, 1 when one fails."})
final class ProxyDoctorSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        ProxyConfigFile file = new ProxyConfigFile(config.storeDir(), main.json().mapper());
        ProxyConfig pc = file.load(); // a malformed file stops here, exit 2, naming the field
        ProxyConfigChecks checks = ProxyConfigChecks.of(pc, main.configLoader().environment());
        StringBuilder sb = new StringBuilder();
        sb.append("Config: ").append(file.path()).append(pc.upstreams().isEmpty() ? ": no upstreams" : ": " + pc.upstreams().size()
                + " upstream(s)").append('\n');
        checks.problems().forEach(p -> sb.append("  FAIL ").append(p).append('\n'));
        checks.warnings().forEach(w -> sb.append("  WARN ").append(w).append('\n'));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("file", file.path().toString());
        data.put("problems", checks.problems());
        data.put("warnings", checks.warnings());
        if (pc.upstreams().isEmpty()) {
            sb.append("Nothing to start. Add an upstream: engram proxy add NAME --command CMD --prefix P, or engram proxy import --from claude");
            data.put("ok", checks.problems().isEmpty());
            main.printer(config).print(sb.toString(), data);
            return checks.problems().isEmpty() ? 0 : 1;
        }
        try (ProxyRuntime runtime = main.proxyRuntime(config, () -> {
            throw new IllegalStateException("doctor does not surface memories");
        })) {
            runtime.connectAll();
            Report r = runtime.doctor();
            boolean ok = runtime.allConnected() && checks.problems().isEmpty();
            data.putAll(r.data());
            data.put("ok", ok);
            sb.append(r.text().stripTrailing()).append('\n').append(ok ? "All upstreams work." : "Some upstreams fail: see FAIL above.");
            main.printer(config).print(sb.toString(), data);
            return ok ? 0 : 1;
        }
    }
}
