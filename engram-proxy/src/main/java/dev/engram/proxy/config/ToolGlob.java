package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Shell-style tool name patterns as memtomem-stm writes them (Python's fnmatch): {@code *} any run
 * of characters, {@code ?} one character, {@code [abc]} / {@code [!abc]} one of (or none of) a set;
 * everything else matches itself, case-sensitively.
 */
public final class ToolGlob {
    private static final int MAX_CHARS = 200;
    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

    private ToolGlob() {
    }

    public static boolean matches(String glob, String name) {
        return COMPILED.computeIfAbsent(glob, ToolGlob::compile).matcher(name).matches();
    }

    /** Refuses a pattern that cannot be a tool pattern, naming {@code field}. */
    public static void validate(String field, String glob) {
        if (glob == null || glob.isBlank()) throw new InvalidArgumentException(field, "holds an empty pattern; give a tool name or a glob such as \"*delete*\"");
        if (glob.length() > MAX_CHARS) throw new InvalidArgumentException(field, "pattern is over " + MAX_CHARS + " characters");
        int open = glob.indexOf('[');
        if (open >= 0 && glob.indexOf(']', open + 1) < 0) {
            throw new InvalidArgumentException(field, "pattern '" + glob + "' opens a [set] it does not close");
        }
    }

    static Pattern compile(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[' && glob.indexOf(']', i + 2) > i) {
                int end = glob.indexOf(']', i + 2);
                String set = glob.substring(i + 1, end);
                boolean negate = set.startsWith("!");
                if (negate) set = set.substring(1);
                re.append('[').append(negate ? "^" : "");
                for (char s : set.toCharArray()) {
                    // a backslash before any non-letter is a literal in a Java class; '-' keeps ranges (a-z)
                    if (Character.isLetterOrDigit(s) || s == '-') re.append(s);
                    else re.append('\\').append(s);
                }
                re.append(']');
                i = end;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
