package dev.engram.engine.lifecycle;

import dev.engram.analysis.StopWords;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic half of contradiction detection, run before any model: two statements about the same subject
 * contradict when
 * <ul>
 *   <li><b>values</b>: a number, date or version given for the same subject word differs ("max 20" against
 *       "max 50", "node v18" against "node v20", "deadline 2026-12-01" against "2026-12-15");</li>
 *   <li><b>negation</b>: one says it and the other says it is not so ("uses Redis" against "does not use Redis").</li>
 * </ul>
 * A value's subject is the nearest content word before it (else after it); two texts that each hold one value only
 * compare those. "The same subject" means the rest of the two texts is alike: their content words (function words, values and
 * negations left out, plural {@code s} dropped) overlap by at least {@link #SAME_SUBJECT} (values) or
 * {@link #SAME_CLAIM} (negation). Anything else is undecided: {@link #compare} answers empty, and a
 * {@link ContradictionJudge}, when one is configured, may decide. Negation is recognised in English only.
 */
public final class ContradictionCheck {
    /** Content-word Jaccard at or above which two texts with different values speak of the same subject. */
    public static final double SAME_SUBJECT = 0.5;
    /** Content-word Jaccard at or above which a text and its negation are the same claim with opposite polarity. */
    public static final double SAME_CLAIM = 0.6;
    /** How many words before a value are searched for its subject. */
    private static final int SUBJECT_REACH = 3;

    private static final Pattern TOKEN = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})|(?<![\\p{L}\\p{N}])(v?\\d+(?:[.,]\\d+)*)(%|[a-z]{1,3}(?![\\p{L}]))?|([\\p{L}][\\p{L}\\p{N}'’_]*)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Set<String> NEGATIONS = Set.of("not", "no", "never", "cannot", "without", "none", "nothing",
            "neither", "nor", "nobody", "nowhere");

    public enum Basis {
        VALUES, NEGATION;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why the pair contradicts: the basis and a phrase naming what differs ("max: 20 vs 50"). */
    public record Finding(Basis basis, String detail) {
    }

    private ContradictionCheck() {
    }

    /** A contradiction between {@code older} and {@code newer} that needs no model, or empty: undecided. */
    public static Optional<Finding> compare(String older, String newer) {
        Parsed a = parse(older), b = parse(newer);
        double overlap = jaccard(a.words, b.words);
        if (overlap >= SAME_SUBJECT) {
            for (Map.Entry<String, Set<String>> e : a.values.entrySet()) {
                Set<String> other = b.values.get(e.getKey());
                if (other == null) continue;
                Set<String> common = new HashSet<>(e.getValue());
                common.retainAll(other);
                if (common.isEmpty()) {
                    return Optional.of(new Finding(Basis.VALUES, e.getKey() + ": " + String.join("/", e.getValue())
                            + " vs " + String.join("/", other)));
                }
            }
            // worded differently around it ("limit is 100" / "limit for the API: 1000"): the only value of each differs
            String va = only(a.values), vb = only(b.values);
            if (va != null && vb != null && !va.equals(vb)) {
                return Optional.of(new Finding(Basis.VALUES, a.values.keySet().iterator().next() + ": " + va + " vs " + vb));
            }
        }
        if (a.negated != b.negated && overlap >= SAME_CLAIM && a.values.keySet().equals(b.values.keySet())
                && !a.words.isEmpty()) {
            return Optional.of(new Finding(Basis.NEGATION, (a.negated ? "the older" : "the newer") + " one negates \""
                    + String.join(" ", a.words.size() <= b.words.size() ? a.ordered : b.ordered) + "\""));
        }
        return Optional.empty();
    }

    /** Content-word Jaccard of two texts as this check sees them (for callers choosing candidates). */
    public static double overlap(String a, String b) {
        return jaccard(parse(a).words, parse(b).words);
    }

    private record Parsed(Set<String> words, List<String> ordered, Map<String, Set<String>> values, boolean negated) {
    }

    private static Parsed parse(String text) {
        List<String> tokens = new ArrayList<>(); // content words, and values as "\0value"
        boolean negated = false;
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            if (m.group(1) != null) {
                tokens.add("\0" + m.group(1));
            } else if (m.group(2) != null) {
                String v = m.group(2).toLowerCase(Locale.ROOT).replace(',', '.');
                if (v.startsWith("v")) v = v.substring(1);
                String unit = m.group(3) == null ? "" : m.group(3).toLowerCase(Locale.ROOT);
                tokens.add("\0" + v + unit);
            } else {
                String w = m.group(4).toLowerCase(Locale.ROOT).replace('’', '\'');
                if (NEGATIONS.contains(w) || w.endsWith("n't")) {
                    negated = !negated;
                    continue;
                }
                if (w.endsWith("'s")) w = w.substring(0, w.length() - 2);
                if (StopWords.contains(w) || w.length() < 2) continue;
                if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.substring(0, w.length() - 1);
                tokens.add(w);
            }
        }
        Set<String> words = new LinkedHashSet<>();
        Map<String, Set<String>> values = new LinkedHashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (!t.startsWith("\0")) {
                words.add(t);
                continue;
            }
            String subject = subject(tokens, i);
            if (subject != null) values.computeIfAbsent(subject, k -> new LinkedHashSet<>()).add(t.substring(1));
        }
        return new Parsed(words, List.copyOf(words), values, negated);
    }

    /** The nearest content word before the value (within reach), else the next one after it. */
    private static String subject(List<String> tokens, int at) {
        for (int j = at - 1; j >= Math.max(0, at - SUBJECT_REACH); j--) {
            if (!tokens.get(j).startsWith("\0")) return tokens.get(j);
        }
        for (int j = at + 1; j < Math.min(tokens.size(), at + 1 + SUBJECT_REACH); j++) {
            if (!tokens.get(j).startsWith("\0")) return tokens.get(j);
        }
        return null;
    }

    private static String only(Map<String, Set<String>> values) {
        if (values.size() != 1) return null;
        Set<String> v = values.values().iterator().next();
        return v.size() == 1 ? v.iterator().next() : null;
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) return 0;
        int common = 0;
        for (String w : a) if (b.contains(w)) common++;
        return (double) common / (a.size() + b.size() - common);
    }
}
