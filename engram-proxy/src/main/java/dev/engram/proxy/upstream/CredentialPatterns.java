package dev.engram.proxy.upstream;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Strings that look like live credentials (memtomem-stm's privacy scan list). A tool whose metadata
 * holds one is not exposed: its description would put a secret into every agent's context.
 * Parameter names such as {@code "api_key": {"type": "string"}} do not match; a key with a value does.
 */
public final class CredentialPatterns {
    private static final List<Named> PATTERNS = List.of(
            new Named("assigned_secret", Pattern.compile(
                    "(?i)(api[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|password|passwd|secret)"
                            + "\\s*[:=]\\s*['\"]?[A-Za-z0-9_\\-./+]{12,}")),
            new Named("openai_key", Pattern.compile("\\bsk-[A-Za-z0-9_-]{20,}")),
            new Named("github_token", Pattern.compile("\\b(ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{30,}|\\bgithub_pat_[A-Za-z0-9_]{30,}")),
            new Named("slack_token", Pattern.compile("\\bxox[abprs]-[A-Za-z0-9-]{10,}")),
            new Named("stripe_key", Pattern.compile("\\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{16,}")),
            new Named("webhook_secret", Pattern.compile("\\bwhsec_[A-Za-z0-9]{20,}")),
            new Named("npm_token", Pattern.compile("\\bnpm_[A-Za-z0-9]{30,}")),
            new Named("aws_access_key", Pattern.compile("\\b(AKIA|ASIA)[0-9A-Z]{16}\\b")),
            new Named("jwt", Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}")),
            new Named("private_key", Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----")));

    private CredentialPatterns() {
    }

    /** The name of the first pattern found in {@code text}, if any (never the match itself: it is a secret). */
    public static Optional<String> find(String text) {
        if (text == null || text.isEmpty()) return Optional.empty();
        for (Named p : PATTERNS) {
            if (p.pattern().matcher(text).find()) return Optional.of(p.name());
        }
        return Optional.empty();
    }

    private record Named(String name, Pattern pattern) {
    }
}
