package dev.engram.mcp.profile.toon;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * toon's memory_consolidate modes on Engram's lifecycle: a merged-away entry is archived (soft forget,
 * restorable), never deleted, and its tags move to the entry kept; {@code dryRun} reports and writes nothing.
 */
final class ConsolidateTool {
    private static final Pattern VERSIONED = Pattern.compile("^(.*?)[-_.]?v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?$");
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
            case "identical" -> merge(dry, "identical", (a, b) -> a.content().strip().equals(b.content().strip()));
            case "similar" -> merge(dry, "similar", (a, b) -> Similarity.jaccard(Similarity.words(a), Similarity.words(b)) > 0.5);
            case "low-quality" -> lowQuality(dry, minQuality == null ? 0.3 : minQuality);
            case "versions" -> versions(dry);
            default -> throw new InvalidArgumentException("mode", "must be identical, similar, low-quality or versions, got '" + mode + "'");
        };
    }

    private String merge(boolean dry, String mode, java.util.function.BiPredicate<Memory, Memory> same) {
        List<Memory> active = new ArrayList<>(c.active());
        Set<String> gone = new HashSet<>();
        // id -> tags as they are now: a kept entry gains tags across several merges, none is lost
        Map<String, List<String>> tagsOf = new java.util.HashMap<>();
        for (Memory m : active) tagsOf.put(m.id(), m.tags());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < active.size(); i++) {
            Memory a = active.get(i);
            if (gone.contains(a.id())) continue;
            for (int j = i + 1; j < active.size(); j++) {
                Memory b = active.get(j);
                if (gone.contains(b.id()) || a.type() != b.type() && mode.equals("identical") || !same.test(a, b)) continue;
                // keep the longer content (toon's rule), else the more used one
                boolean keepA = a.content().length() > b.content().length()
                        || a.content().length() == b.content().length() && a.accessCount() >= b.accessCount();
                Memory keep = keepA ? a : b, drop = keepA ? b : a;
                lines.add("Merged: " + drop.key() + " → " + keep.key());
                gone.add(drop.id());
                if (!dry) {
                    Set<String> tags = new LinkedHashSet<>(tagsOf.get(keep.id()));
                    tags.addAll(tagsOf.get(drop.id()));
                    if (!tags.equals(new LinkedHashSet<>(tagsOf.get(keep.id())))) {
                        c.engine().amend(new AmendCommand(keep.id(), c.zone(), null, List.copyOf(tags), null));
                        tagsOf.put(keep.id(), List.copyOf(tags));
                    }
                    c.engine().forget(new ForgetCommand(drop.id(), c.zone(), ForgetAction.SOFT));
                }
                if (drop == a) break;
            }
        }
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
