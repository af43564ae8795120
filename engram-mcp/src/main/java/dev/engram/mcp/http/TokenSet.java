package dev.engram.mcp.http;

import dev.engram.crypto.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The bearer tokens the HTTP server accepts, kept only as SHA-256 digests. Comparing fixed-length
 * digests with {@link MessageDigest#isEqual} takes the same time whatever the token, and checking
 * every digest without stopping early hides which (and how many) tokens exist. Immutable.
 */
public final class TokenSet {
    private final List<byte[]> digests;

    private TokenSet(List<byte[]> digests) {
        this.digests = digests;
    }

    public static TokenSet of(Collection<String> tokens) {
        return new TokenSet(tokens.stream().map(String::strip).filter(t -> !t.isEmpty()).map(Sha256::of).toList());
    }

    public static TokenSet none() {
        return new TokenSet(List.of());
    }

    /** Tokens from {@code ENGRAM_TOKENS}-style text: comma-separated. */
    public static List<String> parseList(String commaSeparated) {
        return commaSeparated == null ? List.of()
                : Arrays.stream(commaSeparated.split(",")).map(String::strip).filter(t -> !t.isEmpty()).toList();
    }

    /** Tokens from a file: one per line; blank lines and lines starting with '#' are ignored. */
    public static List<String> readFile(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    public boolean isEmpty() {
        return digests.isEmpty();
    }

    public int size() {
        return digests.size();
    }

    public boolean matches(String presented) {
        return indexOf(presented) >= 0;
    }

    /**
     * The position (0-based, in configuration order) of the presented token, or -1: what logs and rate limits
     * call a configured token by, since the token itself is never shown. Every digest is compared.
     */
    public int indexOf(String presented) {
        if (presented == null) return -1;
        byte[] candidate = Sha256.of(presented);
        int found = -1;
        for (int i = 0; i < digests.size(); i++) {
            if (MessageDigest.isEqual(digests.get(i), candidate) && found < 0) found = i;
        }
        return found;
    }

    @Override
    public String toString() {
        return "TokenSet[" + digests.size() + " tokens]";
    }

}
