package dev.engram.access;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named holder of one bearer token and its {@link Grants}. Only the token's SHA-256 digest is kept
 * (lowercase hex); the token itself is shown once, when it is made.
 */
public record Principal(String name, String tokenSha256, Grants grants, Instant created) {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    public Principal {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tokenSha256, "tokenSha256");
        Objects.requireNonNull(grants, "grants");
        Objects.requireNonNull(created, "created");
    }

    @Override
    public String toString() {
        return "Principal[" + name + ", " + grants.describe() + "]"; // never the digest
    }
}
