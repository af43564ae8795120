package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * toon's evidence level of each memory (its 20th field: {@code verified} when the referenced file existed
 * on disk when it was written, {@code unverified} when it did not, {@code conflict} when the write
 * contradicted a warning or a critical/high entry). Engram's memories have no such field, so the levels of
 * a zone live in one store mark, a line {@code id level} per memory: set by memory_remember, kept from
 * data.toon on import, written back on export and into the followed data.toon. A memory without a line
 * has toon's empty level (a legacy entry, or no file claim).
 */
final class ToonEvidence {
    static final Set<String> LEVELS = Set.of("verified", "unverified", "conflict");
    private static final String MARK = "toon-evidence/";

    private ToonEvidence() {
    }

    static String mark(String zone) {
        return MARK + zone;
    }

    /** The zone's levels by memory id. */
    static Map<String, String> read(Engine engine, String zone) {
        return decode(engine.mark(mark(zone)).orElse(""));
    }

    /** toon's ranking boost of each level. */
    static final Map<String, Double> BOOST = Map.of("conflict", 0.15, "verified", 0.03, "unverified", -0.02);
    /** The last mark text read and its levels: recall asks on every call, and the mark changes only on writes. */
    private static volatile Map.Entry<String, Map<String, String>> last = Map.entry("", Map.of());

    /** The zone's levels by memory id, parsed once per change of the mark. */
    static Map<String, String> levels(Engine engine, String zone) {
        String stored = engine.mark(mark(zone)).orElse("");
        Map.Entry<String, Map<String, String>> seen = last;
        if (seen.getKey().equals(stored)) return seen.getValue();
        Map<String, String> parsed = Map.copyOf(decode(stored));
        last = Map.entry(stored, parsed);
        return parsed;
    }

    /** Sets (or, for "", clears) the levels of these memories; one store write, none when nothing changes. */
    static void put(Engine engine, String zone, Map<String, String> levels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        levels.forEach((id, level) -> wanted.put(id, LEVELS.contains(level) ? level : ""));
        Map<String, String> now = read(engine, zone);
        if (wanted.entrySet().stream().allMatch(e -> e.getValue().equals(now.getOrDefault(e.getKey(), "")))) return;
        engine.updateMark(mark(zone), stored -> {
            Map<String, String> all = decode(stored);
            wanted.forEach((id, level) -> {
                if (level.isEmpty()) all.remove(id);
                else all.put(id, level);
            });
            return encode(all);
        });
    }

    static Map<String, String> decode(String stored) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : stored.split("\n")) {
            int space = line.indexOf(' ');
            if (space <= 0) continue;
            String level = line.substring(space + 1).strip();
            if (LEVELS.contains(level)) out.put(line.substring(0, space), level);
        }
        return out;
    }

    private static String encode(Map<String, String> all) {
        StringBuilder b = new StringBuilder();
        all.forEach((id, level) -> b.append(id).append(' ').append(level).append('\n'));
        return b.toString();
    }
}
