package dev.engram.crypto;

import dev.engram.error.EngramUserException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The user's 256-bit key, from TOON_MEMORY_KEY (toon-memory's name, first) or ENGRAM_KEY: 64 hex
 * characters. Held in memory only: never written, logged or printed ({@link #toString()} hides it).
 */
public final class UserKey {
    public static final List<String> ENV_NAMES = List.of("TOON_MEMORY_KEY", "ENGRAM_KEY");
    /** How a message names where the key comes from. */
    public static final String ENV_HINT = "TOON_MEMORY_KEY (or ENGRAM_KEY)";
    private static final Pattern HEX_KEY = Pattern.compile("[0-9a-fA-F]{64}");
    private final byte[] bytes;

    private UserKey(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The key as given in the environment, unchecked; empty when neither variable is set. */
    public static Optional<String> fromEnvironment(Map<String, String> env) {
        for (String name : ENV_NAMES) {
            String v = env.get(name);
            if (v != null && !v.isBlank()) return Optional.of(v.strip());
        }
        return Optional.empty();
    }

    /**
     * Parses 64 hex characters. {@code what} names the use in the message of a malformed key
     * ("the vault key", "the store key"); the message never contains the key.
     */
    public static UserKey parse(String hex, String what) {
        String h = hex == null ? "" : hex.strip();
        if (h.isEmpty()) {
            throw new EngramUserException(what + " is missing: set " + ENV_HINT + " to 64 hex characters"
                    + " (for example the output of `openssl rand -hex 32`) in the server's environment");
        }
        if (!HEX_KEY.matcher(h).matches()) {
            throw new EngramUserException(what + " (" + ENV_HINT + ") must be 64 hex characters (32 bytes), got "
                    + (h.length() == 64 ? "64 characters, not all of them hex digits (0-9, a-f)" : h.length() + " characters"));
        }
        return new UserKey(HexFormat.of().parseHex(h));
    }

    /** A copy of the 32 key bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public String toString() {
        return "UserKey[hidden]";
    }
}
