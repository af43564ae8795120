package dev.engram.proxy.upstream;

import dev.engram.crypto.Sha256;
import java.util.regex.Pattern;

/**
 * Names of proxied tools: {@code prefix__tool}, always valid under the SDK's strict rule
 * {@code [A-Za-z0-9_.-]{1,128}} (SDK gotcha 10). Other characters become {@code _}; a name that is
 * too long keeps its head and gets an 8-hex hash of the full name, so two long names stay distinct.
 */
public final class ToolNames {
    public static final String SEPARATOR = "__";
    public static final int MAX_LENGTH = 128;
    private static final Pattern INVALID = Pattern.compile("[^A-Za-z0-9_.-]");

    private ToolNames() {
    }

    public static String exposed(String prefix, String tool) {
        String raw = prefix + SEPARATOR + tool;
        String name = INVALID.matcher(raw).replaceAll("_");
        if (name.length() <= MAX_LENGTH && name.equals(raw)) return name;
        if (name.length() <= MAX_LENGTH) return name;
        return name.substring(0, MAX_LENGTH - 9) + "_" + Sha256.hex(raw, 4);
    }

    public static boolean valid(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_LENGTH && !INVALID.matcher(name).find();
    }

}
