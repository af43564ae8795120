package dev.engram.proxy.surfacing;

import dev.engram.analysis.TextCut;
import dev.engram.analysis.Words;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a tool call into a search query (memtomem-stm's heuristic): path arguments are split into
 * words ({@code src/auth/jwt_handler.py} → {@code src auth jwt handler py}), other strings give
 * their first sentence (up to 200 chars), ids, long hex and booleans are skipped; with nothing
 * usable, the tool name's words are the query.
 */
public final class QueryExtractor {
    private static final Pattern UUID = Pattern.compile("(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern HEX = Pattern.compile("(?i)[0-9a-f]{24,}");
    private static final int MAX_SENTENCE = 200;

    private QueryExtractor() {
    }

    public static List<String> tokens(String tool, Map<String, Object> arguments) {
        Set<String> words = new LinkedHashSet<>();
        for (Object v : arguments.values()) collect(v, words);
        if (words.isEmpty()) words.addAll(split(tool));
        return new ArrayList<>(words);
    }

    private static void collect(Object v, Set<String> words) {
        if (v instanceof String s) {
            String t = s.strip();
            if (t.isEmpty() || UUID.matcher(t).matches() || HEX.matcher(t).matches()
                    || t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) return;
            if (!t.contains("/") && !t.contains("\\")) {
                int end = sentenceEnd(t);
                t = TextCut.head(t, Math.min(end, MAX_SENTENCE));
            }
            words.addAll(split(t));
        } else if (v instanceof List<?> l) {
            for (Object o : l) collect(o, words);
        }
    }

    private static int sentenceEnd(String t) {
        for (int i = 0; i < t.length() - 1; i++) {
            char c = t.charAt(i);
            if ((c == '.' || c == '?' || c == '!') && Character.isWhitespace(t.charAt(i + 1))) return i + 1;
        }
        return t.length();
    }

    private static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        for (String w : Words.runs(text)) { // '_' is not a letter: snake_case splits too
            if (w.length() >= 2) out.add(w.toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
