package dev.engram.engine;

/**
 * One field of a store mark's tab-separated lines: a backslash, tab, line feed or carriage return in the
 * value is written as {@code \\}, {@code \t}, {@code \n} or {@code \r}, so a value never splits its line or
 * its field. Session heartbeats, tool feedback and memory notes all keep their lines this way.
 */
public final class MarkText {
    private MarkText() {
    }

    public static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    public static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
