package dev.engram.cli;

import java.util.ArrayList;
import java.util.List;

/** Splits a command-line string into words: whitespace separates, single or double quotes group, backslash escapes. */
final class ShellWords {
    private ShellWords() {
    }

    /** POSIX shell words, as {@code --args} takes them: a backslash escapes the next character (inside "…" too). */
    static List<String> split(String s) {
        return split(s, true, "--args");
    }

    /** POSIX shell words of the option {@code option}, which an error names. */
    static List<String> split(String s, String option) {
        return split(s, true, option);
    }

    /**
     * As Windows users write a command line: whitespace separates, double or single quotes group, and a
     * backslash is a path separator, never an escape ({@code "C:\Program Files\Java\bin\java.exe"}).
     */
    static List<String> splitWindows(String s) {
        return split(s, false, "--command");
    }

    private static List<String> split(String s, boolean backslashEscapes, String option) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean escape = backslashEscapes && c == '\\' && i + 1 < s.length();
            if (quote != 0) {
                if (c == quote) quote = 0;
                else if (escape && quote == '"') word.append(s.charAt(++i));
                else word.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (escape) {
                word.append(s.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) out.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) throw new ConfigException(option, s, "has an unclosed " + quote + " quote");
        if (inWord) out.add(word.toString());
        return out;
    }
}
