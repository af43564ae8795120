package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import dev.engram.llm.LlmConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code llm_summary} strategy's settings, memtomem-stm's {@code llm} block as environment variables
 * ({@code ENGRAM_PROXY_LLM__*}, or {@code MEMTOMEM_STM_LLM__*}): {@code LLM_TIMEOUT_SECONDS} (20: a tool
 * call waits for it; STM's 60 is its whole call budget), {@code MAX_TOKENS} (500), {@code SYSTEM_PROMPT}
 * ({@code {max_chars}} is replaced by the room the summary has), {@code PRIVACY_SCAN_ENABLED} (true), and
 * where the model is: {@code BASE_URL}, {@code MODEL}, {@code API_KEY}, else Engram's own chat endpoint
 * ({@code ENGRAM_LLM_URL}, {@code ENGRAM_LLM_MODEL}, {@code ENGRAM_LLM_KEY}). No endpoint: no model, and
 * {@code llm_summary} falls back to the automatic choice, saying so.
 */
public record LlmSummarySettings(Duration timeout, int maxTokens, String systemPrompt, boolean privacyScan,
                                 int maxInputChars, int circuitMaxFailures, Duration circuitReset) {
    /** memtomem-stm's system prompt. */
    public static final String DEFAULT_PROMPT = "Summarize the following content concisely, preserving all key"
            + " information. Keep the summary under {max_chars} characters.";
    /** At most this much of a result is sent (about 12k tokens); the footer says when a summary covers only a head. */
    public static final int DEFAULT_MAX_INPUT_CHARS = 48_000;

    public LlmSummarySettings {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidArgumentException("ENGRAM_PROXY_LLM__LLM_TIMEOUT_SECONDS", "must be > 0, got " + timeout);
        }
        if (maxTokens < 1) throw new InvalidArgumentException("ENGRAM_PROXY_LLM__MAX_TOKENS", "must be >= 1, got " + maxTokens);
        if (systemPrompt == null || systemPrompt.isBlank()) systemPrompt = DEFAULT_PROMPT;
        if (maxInputChars < 1000) {
            throw new InvalidArgumentException("ENGRAM_PROXY_LLM__MAX_INPUT_CHARS", "must be >= 1000, got " + maxInputChars);
        }
    }

    public static LlmSummarySettings defaults() {
        return new LlmSummarySettings(Duration.ofSeconds(20), 500, DEFAULT_PROMPT, true, DEFAULT_MAX_INPUT_CHARS, 3,
                Duration.ofSeconds(60));
    }

    public static LlmSummarySettings fromEnv(Map<String, String> env) {
        LlmSummarySettings d = defaults();
        ProxySettings.Env e = new ProxySettings.Env(env);
        return new LlmSummarySettings(
                Duration.ofMillis((long) (1000 * e.decimal("LLM__LLM_TIMEOUT_SECONDS", d.timeout().toMillis() / 1000.0))),
                e.integer("LLM__MAX_TOKENS", d.maxTokens()), e.text("LLM__SYSTEM_PROMPT", d.systemPrompt()),
                e.bool("LLM__PRIVACY_SCAN_ENABLED", d.privacyScan()), e.integer("LLM__MAX_INPUT_CHARS", d.maxInputChars()),
                e.integer("LLM__CIRCUIT_MAX_FAILURES", d.circuitMaxFailures()),
                Duration.ofSeconds(e.integer("LLM__CIRCUIT_RESET_SECONDS", (int) d.circuitReset().toSeconds())));
    }

    /**
     * The chat endpoint: STM's names ({@code ENGRAM_PROXY_LLM__BASE_URL}, {@code __MODEL}, {@code __API_KEY})
     * when a base URL is set, else Engram's {@link LlmConfig#fromEnvironment}; empty when neither is.
     */
    public Optional<LlmConfig> endpoint(Map<String, String> env) {
        ProxySettings.Env e = new ProxySettings.Env(env);
        String base = e.text("LLM__BASE_URL", null);
        if (base == null) {
            try {
                return LlmConfig.fromEnvironment(env).map(c -> new LlmConfig(c.baseUrl(), c.model(), c.apiKey(), timeout));
            } catch (IllegalArgumentException ex) {
                throw new InvalidArgumentException("ENGRAM_LLM_URL", ex.getMessage());
            }
        }
        try {
            return Optional.of(new LlmConfig(URI.create(base), e.text("LLM__MODEL", LlmConfig.DEFAULT_MODEL),
                    e.text("LLM__API_KEY", null), timeout));
        } catch (IllegalArgumentException ex) {
            throw new InvalidArgumentException("ENGRAM_PROXY_LLM__BASE_URL", ex.getMessage()
                    + "; send the API root, e.g. http://127.0.0.1:11434/v1");
        }
    }
}
