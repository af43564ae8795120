package dev.engram.mcp.http;

import dev.engram.access.Grants;
import dev.engram.access.Principals;
import java.util.Optional;

/**
 * Who a bearer token is: a token from {@code ENGRAM_TOKENS} / {@code --tokens-file} is a full-access
 * principal (every right on every zone, as before principals existed); any other token is looked up
 * among the store's {@link Principals} (null when the server has none), whose rights it gets.
 */
public final class Authenticator {
    private final TokenSet tokens;
    private final Principals principals;

    public Authenticator(TokenSet tokens, Principals principals) {
        this.tokens = tokens;
        this.principals = principals;
    }

    /** The grants of the presented token; empty when it is nobody's. */
    public Optional<Grants> grants(String presented) {
        return caller(presented).map(HttpCaller::grants);
    }

    /** The caller holding the presented token; empty when it is nobody's. */
    public Optional<HttpCaller> caller(String presented) {
        if (presented == null || presented.isEmpty()) return Optional.empty();
        int configured = tokens.indexOf(presented);
        if (configured >= 0) return Optional.of(new HttpCaller(HttpCaller.configuredToken(configured), Grants.FULL));
        return principals == null ? Optional.empty()
                : principals.authenticate(presented).map(p -> new HttpCaller(p.name(), p.grants()));
    }
}
