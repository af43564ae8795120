package dev.engram.mcp.http;

import dev.engram.access.Grants;
import java.util.Objects;

/**
 * Who sent a request, as the bearer filter found it: the principal's name (a configured token is
 * {@code token-N}, its place in ENGRAM_TOKENS / the tokens file, since a token is never shown) and its rights.
 * Rate limits count per name and request logs name it.
 */
public record HttpCaller(String name, Grants grants) {
    /** The request attribute holding the caller. */
    public static final String ATTRIBUTE = "engram.caller";

    public HttpCaller {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(grants, "grants");
    }

    /** The name of the configured token at {@code index} (0-based). */
    static String configuredToken(int index) {
        return "token-" + (index + 1);
    }
}
