package dev.engram.mcp.profile.memento;

import dev.engram.engine.MemoryNotes;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * Memento v3's case fields of one fragment, checked: {@code caseId}, {@code resolutionStatus}, {@code phase},
 * {@code assertionStatus} and {@code affect} become tags, {@code goal}, {@code outcome} and {@code contextSummary}
 * the memory's notes (the engine keeps them with it, and export carries both). One rule for {@code remember} and for
 * the import of Memento's columns; only the limits differ ({@link Limits}).
 */
record CaseFields(String caseId, String resolution, String phase, String assertion, String affect, Map<String, String> notes) {
    /** The argument names, as remember takes them; the import maps them to Memento's column names. */
    static final List<String> NAMES = List.of("caseId", "resolutionStatus", "phase", "assertionStatus", "affect", "goal",
            "outcome", "contextSummary");
    static final int MAX_PHASE = 50;

    /**
     * How long a case id and the texts may be: remember keeps its own bounds; an import takes what Memento's columns
     * hold (case_id is varchar(255)) and what a note can hold, so a real Memento database is never refused for length.
     */
    record Limits(int caseId, int text) {
        static final Limits REMEMBER = new Limits(100, Fragments.MAX_EPISODE_CHARS);
        static final Limits IMPORT = new Limits(255, MemoryNotes.MAX_CHARS);
    }

    CaseFields withCase(String id) {
        return new CaseFields(id, resolution, phase, assertion, affect, notes);
    }

    /**
     * The fields from their raw values by {@link #NAMES} (a missing or blank one is absent), checked against
     * {@code limits}; a bad one is refused with {@code shown(name)} as the field, saying what to send.
     */
    static CaseFields check(Map<String, String> raw, Limits limits, UnaryOperator<String> shown) {
        String caseId = blankToNull(raw.get("caseId"));
        if (caseId != null && caseId.length() > limits.caseId()) {
            throw new InvalidArgumentException(shown.apply("caseId"), "is " + caseId.length() + " characters; send at most " + limits.caseId());
        }
        String phase = blankToNull(raw.get("phase"));
        if (phase != null) {
            if (phase.length() > MAX_PHASE) {
                throw new InvalidArgumentException(shown.apply("phase"), "is " + phase.length() + " characters; send a short stage name"
                        + " (at most " + MAX_PHASE + "), e.g. planning, debugging, implementation, verification");
            }
            if (phase.chars().anyMatch(Character::isISOControl)) {
                throw new InvalidArgumentException(shown.apply("phase"), "has a line break or control character; send one short "
                        + "stage name, e.g. debugging");
            }
        }
        Map<String, String> notes = new LinkedHashMap<>();
        text(raw, "goal", Fragments.GOAL, limits, shown, notes);
        text(raw, "outcome", Fragments.OUTCOME, limits, shown, notes);
        text(raw, "contextSummary", Fragments.CONTEXT_SUMMARY, limits, shown, notes);
        return new CaseFields(caseId, choice(raw, "resolutionStatus", Fragments.RESOLUTIONS, "a status", shown), phase,
                choice(raw, "assertionStatus", Fragments.ASSERTIONS, "an assertion status", shown),
                choice(raw, "affect", Fragments.AFFECTS, "an affect", shown), notes);
    }

    private static void text(Map<String, String> raw, String name, String note, Limits limits, UnaryOperator<String> shown,
                             Map<String, String> notes) {
        String v = blankToNull(raw.get(name));
        if (v == null) return;
        if (v.length() > limits.text()) {
            throw new InvalidArgumentException(shown.apply(name), "is " + v.length() + " characters; send at most " + limits.text()
                    + " (a sentence or two)");
        }
        notes.put(note, v);
    }

    /** An optional value of a closed list (case-insensitive), or null; anything else refused naming the values. */
    static String choice(Map<String, String> raw, String name, List<String> allowed, String what, UnaryOperator<String> shown) {
        String v = blankToNull(raw.get(name));
        if (v == null) return null;
        String s = v.toLowerCase(Locale.ROOT);
        if (!allowed.contains(s)) {
            throw new InvalidArgumentException(shown.apply(name), MemoryRules.shown(v) + " is not " + what + "; send one of "
                    + String.join(", ", allowed));
        }
        return s;
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }

    /**
     * The tags; {@code tagger} makes the tag of a free word (a case id, a phase) under its prefix, keeping a non-ASCII
     * word's spelling as it sees fit (remember writes a store mark, the import carries it with the record).
     */
    List<String> tags(BinaryOperator<String> tagger) {
        List<String> tags = new ArrayList<>();
        if (caseId != null) tags.add(tagger.apply(Fragments.CASE, caseId));
        if (resolution != null) tags.add(Fragments.RESOLUTION + resolution);
        if (phase != null) tags.add(tagger.apply(Fragments.PHASE, phase));
        if (assertion != null && !assertion.equals("observed")) tags.add(Fragments.ASSERTION + assertion);
        if (affect != null && !affect.equals("neutral")) tags.add(Fragments.AFFECT + affect);
        return tags;
    }

    /** As recall renders them, for a dry run. */
    Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        if (caseId != null) f.put("case_id", caseId);
        if (notes.containsKey(Fragments.GOAL)) f.put("goal", notes.get(Fragments.GOAL));
        if (notes.containsKey(Fragments.OUTCOME)) f.put("outcome", notes.get(Fragments.OUTCOME));
        if (phase != null) f.put("phase", phase);
        if (resolution != null) f.put("resolution_status", resolution);
        if (assertion != null && !assertion.equals("observed")) f.put("assertion_status", assertion);
        if (notes.containsKey(Fragments.CONTEXT_SUMMARY)) f.put("context_summary", notes.get(Fragments.CONTEXT_SUMMARY));
        if (affect != null && !affect.equals("neutral")) f.put("affect", affect);
        return f;
    }
}
