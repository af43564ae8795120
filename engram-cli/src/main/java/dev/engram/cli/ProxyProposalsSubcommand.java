package dev.engram.cli;

import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Origin;
import dev.engram.proxy.stats.ProposalQueue;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "proposals", mixinStandardHelpOptions = true, description = {"Memories agents proposed with stm_memory_propose, waiting for review.",
        "--accept ID stores one (origin agent, tag proposal); --reject ID drops it."})
final class ProxyProposalsSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Option(names = "--accept", paramLabel = "ID", description = "Store this proposal as a memory")
    String accept;

    @Option(names = "--reject", paramLabel = "ID", description = "Drop this proposal")
    String reject;

    @Parameters(arity = "0")
    List<String> none;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        try (ProposalQueue queue = new ProposalQueue(config.storeDir(), Clock.systemUTC(), () -> "")) {
            if (reject != null) {
                pending(queue, reject);
                queue.resolve(reject, "rejected");
                main.out().println("Rejected " + reject + ".");
                return 0;
            }
            if (accept != null) {
                String content = pending(queue, accept);
                try (Main.OpenEngine opened = main.openEngine(config)) {
                    RememberResult r = opened.engine().remember(new RememberCommand(content, null, null, List.of("proposal"),
                            config.zone(), null, null, null, null, null, Origin.AGENT, false, null, null));
                    queue.resolve(accept, "accepted");
                    main.out().println("Accepted " + accept + " as " + r.memory().id() + " (" + r.outcome().name().toLowerCase(java.util.Locale.ROOT) + ").");
                }
                return 0;
            }
            List<Map<String, Object>> rows = queue.pending();
            StringBuilder sb = new StringBuilder();
            for (Map<String, Object> r : rows) {
                sb.append(r.get("id")).append(": ").append(r.get("content"))
                        .append(r.get("source_ref") == null ? "" : "  (from " + r.get("source_ref") + ")").append('\n');
            }
            main.printer(config).print(rows.isEmpty() ? "No pending proposals." : sb.toString().stripTrailing(),
                    Map.of("pending", rows));
            return 0;
        }
    }

    private static String pending(ProposalQueue queue, String id) {
        return queue.pendingContent(id).orElseThrow(() -> new NotFoundException("no pending proposal '" + id
                + "'; `engram proxy proposals` lists them"));
    }
}
