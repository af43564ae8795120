package dev.engram.mcp.profile.toon;

import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecalledMemory;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** toon's one-call briefings: context_brief, context_generate, context_diff, context_focus, context_export. */
final class ContextTools {
    private static final List<String> MANIFESTS = List.of("package.json", "pom.xml", "build.gradle", "build.gradle.kts",
            "Cargo.toml", "go.mod", "pyproject.toml", "requirements.txt", "Gemfile", "composer.json", "tsconfig.json");
    private final ToonContext c;
    private final ReportTools reports;
    private final ToonBriefing briefing;

    ContextTools(ToonContext c, ReportTools reports) {
        this.c = c;
        this.reports = reports;
        this.briefing = new ToonBriefing(c);
    }

    ToonTool brief() {
        var schema = JsonSchema.input()
                .string("task", "What you are about to do (optional)", "add validation")
                .integer("limit", "How many entries (default 6; the section stays within 800 tokens)", 1, 100, 6);
        return new ToonTool(ToonTool.define("context_brief", "Compact briefing: memory overview, the entries most "
                + "relevant to the task (without one, the most important), established patterns, active sessions and "
                + "health warnings. One call instead of several.", schema, ToonTool.hints(true, false, true)),
                args -> briefing.text(args, args.textOr("task"), args.intOr("limit", 6, 1, 100)));
    }

    ToonTool generate() {
        var schema = JsonSchema.input().string("task", "What you are about to do (optional)", "add validation");
        return new ToonTool(ToonTool.define("context_generate", "Full briefing: project scan (manifests, git branch, "
                + "recent commits, uncommitted files), memory and sessions.", schema, ToonTool.hints(true, false, true)), args -> {
            StringBuilder b = new StringBuilder("## Project\n");
            b.append("Root: ").append(c.project()).append('\n');
            List<String> manifests = MANIFESTS.stream().filter(f -> Files.exists(c.project().resolve(f))).toList();
            b.append("Manifests: ").append(manifests.isEmpty() ? "none found" : String.join(", ", manifests)).append('\n');
            List<String> branch = Git.lines(c.project(), "rev-parse", "--abbrev-ref", "HEAD");
            if (!branch.isEmpty()) {
                b.append("Branch: ").append(branch.get(0)).append('\n');
                List<String> commits = Git.lines(c.project(), "log", "--oneline", "-5");
                if (!commits.isEmpty()) b.append("Recent commits:\n").append(commits.stream().map(l -> "  " + l).collect(Collectors.joining("\n"))).append('\n');
                List<String> dirty = Git.lines(c.project(), "status", "--porcelain");
                b.append("Uncommitted files: ").append(dirty.size()).append('\n');
                dirty.stream().limit(10).forEach(l -> b.append("  ").append(l).append('\n'));
            } else {
                b.append("Git: not a repository\n");
            }
            b.append('\n').append(briefing.text(args, args.textOr("task"), 6));
            return b.toString();
        });
    }

    ToonTool diff() {
        var schema = JsonSchema.input().string("since", "24h, 7d or a date (default 24h)", "24h");
        return new ToonTool(ToonTool.define("context_diff", "What changed: git commits and modified files, and new or "
                + "updated memory, since a time.", schema, ToonTool.hints(true, false, true)), args -> {
            String since = args.textOr("since") == null || args.textOr("since").isBlank() ? "24h" : args.textOr("since").strip();
            var from = reports.since(since);
            StringBuilder b = new StringBuilder("## Changes since ").append(since).append('\n');
            List<String> commits = Git.lines(c.project(), "log", "--oneline", "--since=" + from.toString(), "-20");
            List<String> dirty = Git.lines(c.project(), "status", "--porcelain");
            b.append("Commits: ").append(commits.size()).append('\n');
            commits.forEach(l -> b.append("  ").append(l).append('\n'));
            b.append("Modified files: ").append(dirty.size()).append('\n');
            dirty.stream().limit(20).forEach(l -> b.append("  ").append(l).append('\n'));
            b.append('\n').append(reports.diffText(from, since, "all"));
            return b.toString();
        });
    }

    ToonTool focus() {
        var schema = JsonSchema.input()
                .string("task", "What you are about to do", "fix the signup validation")
                .integer("limit", "How many memories (default 6)", 1, 100, 6)
                .required("task");
        return new ToonTool(ToonTool.define("context_focus", "Focused context for a task: relevant memories and the "
                + "project files they name.", schema, ToonTool.hints(true, false, true)), args -> {
            List<RecalledMemory> found = c.engine().recall(RecallQuery.builder(args.text("task")).zone(c.zone())
                    .limit(args.intOr("limit", 6, 1, 100)).mode(RecallMode.RANKED).build(), ToonText.COST).results();
            StringBuilder b = new StringBuilder("## Focus: ").append(args.text("task").strip()).append('\n');
            if (found.isEmpty()) b.append("No relevant memories.\n");
            else b.append(ToonText.render(found, ToonText.Layout.NORMAL, new ToonLinks(c.engine(), c.zone(), true), null)).append('\n');
            List<String> files = found.stream().map(r -> r.memory().file()).filter(f -> f != null && !f.isBlank()).distinct()
                    .filter(f -> c.evidence(f).equals("verified")).toList();
            b.append("\n## Related files\n");
            if (files.isEmpty()) b.append("(none named by these memories exist in the project)\n");
            files.forEach(f -> b.append("- ").append(f).append('\n'));
            b.append("(callers and tests by code search are not built yet)");
            return b.toString();
        });
    }

    ToonTool export() {
        var schema = JsonSchema.input().choice("format", "full (default) or compact", List.of("full", "compact"));
        return new ToonTool(ToonTool.define("context_export", "The memory as markdown, ready to paste into a prompt.",
                schema, ToonTool.hints(true, false, true)), args -> {
            String format = args.textOr("format") == null || args.textOr("format").isBlank() ? "full" : args.textOr("format").strip();
            if (!format.equals("full") && !format.equals("compact")) {
                throw new InvalidArgumentException("format", "must be full or compact, got " + MemoryRules.shown(format));
            }
            List<Memory> active = c.active().stream().filter(m -> !m.tags().contains("private"))
                    .sorted(Comparator.comparingInt(Memory::pinPriority).reversed().thenComparing(Memory::key)).toList();
            Map<MemoryType, List<Memory>> byType = new LinkedHashMap<>();
            for (Memory m : active) byType.computeIfAbsent(m.type(), k -> new ArrayList<>()).add(m);
            StringBuilder b = new StringBuilder("# Project memory (toon-memory export, by Engram) — ").append(active.size()).append(" entries\n");
            byType.forEach((type, list) -> {
                b.append("\n## ").append(ToonText.category(type)).append('\n');
                for (Memory m : list) {
                    if (format.equals("compact")) {
                        b.append("- ").append(m.key()).append(": ").append(m.content().lines().findFirst().orElse("")).append('\n');
                    } else {
                        b.append("- **").append(m.key()).append("**").append(m.file() == null ? "" : " (`" + m.file() + "`)").append(": ")
                                .append(m.content().replace("\n", "\n  ")).append(m.tags().isEmpty() ? "" : " _[" + String.join(", ", m.tags()) + "]_").append('\n');
                    }
                }
            });
            return b.toString().stripTrailing();
        });
    }
}
