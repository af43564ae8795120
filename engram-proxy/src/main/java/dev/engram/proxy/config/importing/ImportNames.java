package dev.engram.proxy.config.importing;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Turns the names other tools allow into valid, unused Engram upstream names and tool prefixes. */
final class ImportNames {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private ImportNames() {
    }

    /** The name itself when Engram accepts it, else with every other character replaced by '-'. */
    static String name(String raw) {
        if (NAME.matcher(raw).matches()) return raw;
        String s = raw.replaceAll("[^A-Za-z0-9_.-]", "-").replaceAll("-{2,}", "-").replaceAll("^-|-$", "");
        if (s.isEmpty()) s = "upstream";
        return s.length() > 64 ? s.substring(0, 64) : s;
    }

    /**
     * A prefix for tools of {@code wanted} (a given prefix or the server's name) that Engram accepts
     * and no other upstream uses: lower case, one '_' at most in a row, at most 32 characters, then a
     * number appended while it is taken.
     */
    static String prefix(String wanted, Set<String> taken) {
        String s = wanted.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "_").replaceAll("_{2,}", "_")
                .replaceAll("^[^a-z0-9]+", "").replaceAll("_+$", "");
        if (s.isEmpty()) s = "mcp";
        if (s.length() > 30) s = s.substring(0, 30).replaceAll("_+$", "");
        String p = s;
        for (int n = 2; taken.contains(p); n++) p = s + n;
        return p;
    }
}
