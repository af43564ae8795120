package dev.engram.cli;

import dev.engram.engine.lifecycle.LifecyclePolicy;
import dev.engram.engine.lifecycle.MaintenanceReport;
import dev.engram.engine.lifecycle.StepReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "consolidate", mixinStandardHelpOptions = true, description = {"Run the maintenance cycle now.",
        "Servers also run it on a schedule (ENGRAM_MAINTENANCE_INTERVAL). It does:",
        "auto-anchor, typed decay written back, garbage collection (archived first, purged later); every zone unless --zone."})
final class ConsolidateSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--dry-run", description = "Report what would change; write nothing")
    boolean dryRun;

    @Option(names = "--profile", paramLabel = "NAME", description = "Whose lifecycle policy to run (memento, or the default"
            + " of every other profile; default native, or $ENGRAM_PROFILE)")
    String profile;

    @Override
    public Integer call() {
        Main main = root.main();
        EngramConfig config = root.config();
        LifecyclePolicy policy = LifecyclePolicy.forProfile(main.configLoader().profile(profile, main.profiles()));
        try (Main.OpenEngine opened = main.openEngine(config)) {
            main.useJudge(opened.engine());
            MaintenanceReport r = opened.engine().maintenance().run(policy, config.zone(), dryRun);
            main.printer(config).print(text(r), structured(r));
        }
        return 0;
    }

    static String text(MaintenanceReport r) {
        StringBuilder b = new StringBuilder();
        b.append(r.dryRun() ? "Dry run (nothing written): " : "Maintenance: ").append(r.policy()).append(" policy, ")
                .append(r.zone() == null ? "every zone" : "zone " + r.zone()).append(", ")
                .append(r.changed()).append(r.dryRun() ? " change(s) would be made" : " change(s)").append('\n');
        for (StepReport s : r.steps()) {
            b.append("  ").append(s.step()).append(": ").append(s.changed()).append(" of ").append(s.examined()).append('\n');
            for (StepReport.Finding f : s.findings()) {
                b.append("    ").append(f.kind()).append(' ').append(String.join(", ", f.memoryIds())).append(": ")
                        .append(f.detail()).append('\n');
            }
            if (s.findings().size() < s.changed()) {
                b.append("    … and ").append(s.changed() - s.findings().size()).append(" more\n");
            }
        }
        return b.toString().stripTrailing();
    }

    static Map<String, Object> structured(MaintenanceReport r) {
        List<Map<String, Object>> steps = new ArrayList<>();
        for (StepReport s : r.steps()) {
            List<Map<String, Object>> findings = new ArrayList<>();
            for (StepReport.Finding f : s.findings()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("kind", f.kind());
                m.put("ids", f.memoryIds());
                m.put("detail", f.detail());
                findings.add(m);
            }
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("step", s.step());
            step.put("examined", s.examined());
            step.put("changed", s.changed());
            step.put("findings", findings);
            steps.add(step);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("policy", r.policy());
        out.put("zone", r.zone());
        out.put("dry_run", r.dryRun());
        out.put("changed", r.changed());
        out.put("started_at", r.startedAt().toString());
        out.put("finished_at", r.finishedAt().toString());
        out.put("steps", steps);
        return out;
    }
}
