package dev.engram.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * One request: a system and a user message, sampling temperature, an answer cap in tokens, and how
 * long the caller can wait (hooks wait 4-8 s; null takes the client's configured timeout).
 */
public record ChatPrompt(String system, String user, double temperature, int maxTokens, Duration timeout) {
    public ChatPrompt {
        Objects.requireNonNull(user, "user");
        if (temperature < 0 || temperature > 2) throw new IllegalArgumentException("temperature must be 0..2, got " + temperature);
        if (maxTokens < 1) throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    public static ChatPrompt of(String system, String user, int maxTokens) {
        return new ChatPrompt(system, user, 0.1, maxTokens, null);
    }

    public ChatPrompt withTimeout(Duration t) {
        return new ChatPrompt(system, user, temperature, maxTokens, t);
    }
}
