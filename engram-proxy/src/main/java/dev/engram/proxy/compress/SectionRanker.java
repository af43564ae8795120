package dev.engram.proxy.compress;

import dev.engram.analysis.StopWords;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ranks a result's sections by the agent's {@code _context_query}, as memtomem-stm's BM25 scorer does:
 * Okapi BM25 (k1 1.5, b 0.75) over each section's words, a word of its title counting three times
 * (a heading says what the section is about), case-folded with a crude suffix strip so "deploying"
 * meets "deploy". In-process and linear in the text: it runs on every compressed call that carries a
 * query, so it needs no index and no model. Words shorter than 2 characters and the query's function
 * words ({@link StopWords}, the engine's own list) are dropped.
 */
public final class SectionRanker {
    static final double K1 = 1.5;
    static final double B = 0.75;
    static final double TITLE_WEIGHT = 3.0;
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]+");
    private static final Pattern SUFFIX = Pattern.compile("(ing|ed|ly|tion|ness|ment|ies|es|s)$");
    private SectionRanker() {
    }

    /** A section's position in the list and its score; only sections that match at least one query word are ranked. */
    public record Ranked(int index, double score) {
    }

    /**
     * The sections of {@code raw} that match {@code query}, best first (ties in document order). Empty when the
     * query has no usable word or no section holds any of them: then nothing is focused and views stay as they are.
     */
    public static List<Ranked> rank(String query, String raw, List<Section> sections) {
        Set<String> terms = new HashSet<>();
        if (query != null) {
            // the engine's function words ("how do I" would otherwise match every section), dropped before stemming
            Matcher q = WORD.matcher(query);
            while (q.find()) {
                String w = q.group().toLowerCase(Locale.ROOT);
                String t = stem(w);
                if (!StopWords.contains(w) && t.length() >= 2) terms.add(t);
            }
        }
        if (terms.isEmpty() || sections.isEmpty()) return List.of();
        List<Map<String, Double>> tfs = new ArrayList<>(sections.size());
        double[] lengths = new double[sections.size()];
        double total = 0;
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            Map<String, Double> tf = new HashMap<>();
            double length = 0;
            for (String t : terms(s.title())) {
                length += TITLE_WEIGHT;
                if (terms.contains(t)) tf.merge(t, TITLE_WEIGHT, Double::sum);
            }
            Matcher m = WORD.matcher(raw).region(s.start(), s.end());
            while (m.find()) {
                length++;
                String t = stem(m.group());
                if (terms.contains(t)) tf.merge(t, 1.0, Double::sum);
            }
            tfs.add(tf);
            lengths[i] = length;
            total += length;
        }
        double average = total / sections.size();
        Map<String, Double> idf = new HashMap<>();
        for (String t : terms) {
            long df = tfs.stream().filter(tf -> tf.containsKey(t)).count();
            idf.put(t, Math.log((sections.size() - df + 0.5) / (df + 0.5) + 1.0));
        }
        List<Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            double score = 0;
            for (Map.Entry<String, Double> e : tfs.get(i).entrySet()) {
                double f = e.getValue();
                double norm = average == 0 ? 1 : 1 - B + B * lengths[i] / average;
                score += idf.get(e.getKey()) * f * (K1 + 1) / (f + K1 * norm);
            }
            if (score > 0) ranked.add(new Ranked(i, score));
        }
        ranked.sort(Comparator.comparingDouble(Ranked::score).reversed().thenComparingInt(Ranked::index));
        return ranked;
    }

    static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) return out;
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            String t = stem(m.group());
            if (t.length() >= 2) out.add(t);
        }
        return out;
    }

    /** Lower case, one common English suffix off, never below 3 characters ("is" and "as" stay whole). */
    static String stem(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.length() <= 4) return w;
        Matcher m = SUFFIX.matcher(w);
        return m.find() && m.start() >= 3 ? w.substring(0, m.start()) : w;
    }
}
