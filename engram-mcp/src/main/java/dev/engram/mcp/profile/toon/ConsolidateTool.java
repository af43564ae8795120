package dev.engram.mcp.profile.toon;

import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.lifecycle.DuplicateMerge;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * toon's memory_consolidate modes on Engram's lifecycle. identical and similar are the engine's duplicate merge
 * ({@link DuplicateMerge}: the longer content stays, tags and links move to it, the merged-away entry is archived,
 * restorable, never deleted); {@code dryRun} reports and writes nothing.
 */
final class ConsolidateTool {
    private static final Pattern VERSIONED = Pattern.compile("^(.*?)[-_.]?v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?$");
    /** toon's similar mode: word-set Jaccard over key, content and tags above this. */
    static final double SIMILAR_ABOVE = 0.5;
    private final ToonContext c;

    ConsolidateTool(ToonContext c) {
        this.c = c;
    }

    ToonTool tool() {
        var schema = JsonSchema.input()
                .choice("mode", "identical (default), similar, low-quality or versions", List.of("identical", "similar", "low-quality", "versions"))
                .property("minQuality", ToonTool.number("low-quality: entries below this quality (default 0.3)", 0.3))
                .bool("dryRun", "Report what would change and write nothing");
        return new ToonTool(ToonTool.define("memory_consolidate", "Merge duplicate and near-duplicate entries, drop "
                + "low-quality ones, or retire old versions (merged entries are archived, restorable).", schema,
                ToonTool.hints(false, true, true)), this::run);
    }

    private String run(ToolArgs args) {
        String mode = args.textOr("mode") == null || args.textOr("mode").isBlank() ? "identical" : args.textOr("mode").strip();
        boolean dry = args.bool("dryRun");
        Double minQuality = args.numberOr("minQuality", 0, 1);
        return switch (mode) {
            case "identical" -> merge(dry, "identical");
            case "similar" -> merge(dry, "similar");
            case "low-quality" -> lowQuality(dry, minQuality == null ? 0.3 : minQuality);
            case "versions" -> versions(dry);
            default -> throw new InvalidArgumentException("mode", "must be identical, similar, low-quality or versions, got " + MemoryRules.shown(mode));
        };
    }

    /** The engine merges (its rule keeps the longer content, then the more used); this only words toon's report. */
    private String merge(boolean dry, String mode) {
        List<DuplicateMerge.Merge> merges = c.engine().mergeDuplicates(c.zone(),
                mode.equals("identical") ? DuplicateMerge.Mode.IDENTICAL : DuplicateMerge.Mode.WORDS, SIMILAR_ABOVE, dry);
        List<String> lines = new ArrayList<>();
        for (DuplicateMerge.Merge m : merges) lines.add("Merged: " + m.dropped().key() + " → " + m.kept().key());
        String head = "🧹 Memory " + (dry ? "would be consolidated" : "consolidated") + " (" + mode + "): "
                + lines.size() + " entr" + (lines.size() == 1 ? "y" : "ies") + " merged";
        return lines.isEmpty() ? head + "; nothing to merge." : head + (dry ? " (dry run, nothing written)" : " (archived, restorable)")
                + "\n  " + String.join("\n  ", lines);
    }

    private String lowQuality(boolean dry, double minQuality) {
        List<Memory> weak = c.active().stream().filter(m -> m.pinPriority() == 0
                && (m.quality() < minQuality || m.tags().isEmpty() || m.content().strip().length() < 20)).toList();
        if (weak.isEmpty()) return "🧹 Memory consolidated (low-quality): no entry below quality " + minQuality + ", untagged or under 20 characters.";
        StringBuilder b = new StringBuilder(dry ? "🧹 Compression candidates (" + weak.size() + "), dry run — nothing written:"
                : "🧹 Memory consolidated (low-quality): archived " + weak.size() + " entries (restorable):");
        for (Memory m : weak) {
            b.append("\n  ").append(m.key()).append(String.format(java.util.Locale.ROOT, " (quality %.2f%s%s)", m.quality(),
                    m.tags().isEmpty() ? ", no tags" : "", m.content().strip().length() < 20 ? ", short" : ""));
            if (!dry) c.engine().forget(new ForgetCommand(m.id(), c.zone(), ForgetAction.SOFT));
        }
        return b.toString();
    }

    /** Keys ending in a version ({@code node-18.2}, {@code api-v2.0}): the highest version supersedes the others. */
    private String versions(boolean dry) {
        Map<String, List<Memory>> groups = new LinkedHashMap<>();
        for (Memory m : c.active()) {
            Matcher v = VERSIONED.matcher(m.key());
            if (v.matches() && !v.group(1).isEmpty()) groups.computeIfAbsent(v.group(1), k -> new ArrayList<>()).add(m);
        }
        List<String> lines = new ArrayList<>();
        for (List<Memory> group : groups.values()) {
            if (group.size() < 2) continue;
            group.sort(Comparator.comparing(ConsolidateTool::version).reversed());
            Memory newest = group.get(0);
            for (Memory old : group.subList(1, group.size())) {
                lines.add("Superseded: " + old.key() + " → " + newest.key());
                if (!dry) c.engine().link(new LinkCommand(newest.id(), old.id(), EdgeType.SUPERSEDES, c.zone(), false));
            }
        }
        String head = "🧹 Memory " + (dry ? "would be consolidated" : "consolidated") + " (versions): " + lines.size() + " older versions";
        return lines.isEmpty() ? head + "; nothing to retire." : head + "\n  " + String.join("\n  ", lines);
    }

    /** Digits left-padded so versions compare as numbers, whatever their length. */
    private static String pad(String digits) {
        return "0".repeat(Math.max(0, 80 - digits.length())) + digits;
    }

    private static String version(Memory m) {
        Matcher v = VERSIONED.matcher(m.key());
        if (!v.matches()) return "";
        return pad(v.group(2)) + "." + pad(v.group(3)) + "." + pad(v.group(4) == null ? "0" : v.group(4));
    }
}
