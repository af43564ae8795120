package dev.engram.mcp.profile.memento;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.MemoryRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Memento's mode presets: a session started with {@code X-Memento-Mode: recall-only} (or {@code --mode} on stdio)
 * sees only that preset's tools, so a read-only agent cannot even try to write. The tool lists are Memento's
 * (its {@code lib/memory/modes/*.json}): recall-only and audit leave out the tools that store, change or delete a
 * fragment (recall-only also consolidation; both keep {@code tool_feedback}, as Memento does), write-only leaves out
 * every read, onboarding shows everything with {@code get_skill_guide} first.
 */
public final class MementoModes {
    /** The HTTP header that picks a preset, as Memento reads it. */
    public static final String HEADER = "X-Memento-Mode";
    private static final Set<String> WRITES = Set.of("remember", "batch_remember", "amend", "forget", "link", "reflect");
    private static final Set<String> READS = Set.of("recall", "context", "reconstruct_history", "graph_explore",
            "fragment_history", "search_traces", "memory_stats");

    /** One preset: the tools it hides and the tool it puts first ({@code null}: the profile's order). */
    record Mode(String name, Set<String> excluded, String first) {
    }

    static final List<Mode> MODES = List.of(
            new Mode("recall-only", union(WRITES, Set.of("memory_consolidate")), null),
            new Mode("write-only", READS, null),
            new Mode("onboarding", Set.of(), "get_skill_guide"),
            new Mode("audit", WRITES, null));

    private MementoModes() {
    }

    /** The preset names, in Memento's order. */
    public static List<String> names() {
        return MODES.stream().map(Mode::name).toList();
    }

    /** {@code profile} as every preset sees it, keyed by the preset's name. */
    public static Map<String, ToolProfile> variants(ToolProfile profile) {
        Map<String, ToolProfile> out = new LinkedHashMap<>();
        for (Mode m : MODES) out.put(m.name(), apply(profile, m));
        return out;
    }

    /** {@code profile} under the preset {@code name}; an unknown name is refused saying which exist. */
    public static ToolProfile variant(ToolProfile profile, String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (Mode m : MODES) if (m.name().equals(n)) return apply(profile, m);
        throw new InvalidArgumentException("mode", MemoryRules.shown(name) + " is not a mode preset; send one of " + String.join(", ", names()));
    }

    private static ToolProfile apply(ToolProfile profile, Mode mode) {
        List<ToolHandler> tools = new ArrayList<>();
        for (ToolHandler t : profile.tools()) {
            String name = t.definition().name();
            if (mode.excluded().contains(name)) continue;
            if (name.equals(mode.first())) tools.add(0, t);
            else tools.add(t);
        }
        String instructions = profile.instructions() + "\nThis session runs in Memento's " + mode.name() + " mode"
                + (mode.excluded().isEmpty() ? "." : ": " + String.join(", ", new java.util.TreeSet<>(mode.excluded()))
                + " are not available.");
        return new ToolProfile(profile.name(), instructions, tools, profile.resources(), profile.prompts());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.HashSet<String> s = new java.util.HashSet<>(a);
        s.addAll(b);
        return Set.copyOf(s);
    }
}
