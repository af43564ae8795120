package dev.engram.llm;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an OpenAI-compatible chat endpoint is: API root ({@code …/v1}; the client appends
 * {@code /chat/completions}), model, key (null for local servers) and the default timeout.
 */
public record LlmConfig(URI baseUrl, String model, String apiKey, Duration timeout) {
    public static final String URL = "ENGRAM_LLM_URL";
    public static final String MODEL = "ENGRAM_LLM_MODEL";
    public static final String KEY = "ENGRAM_LLM_KEY";
    public static final String TIMEOUT_MS = "ENGRAM_LLM_TIMEOUT_MS";
    /** brain-tools' names, read when Engram's are absent, so a brain-tools setup works unchanged. */
    public static final String AI_API_BASE = "AI_API_BASE", AI_MODEL = "AI_MODEL", AI_API_KEY = "AI_API_KEY",
            GROQ_API_KEY = "GROQ_API_KEY";
    /** brain-tools' defaults when only a key is given. */
    public static final String GROQ_BASE = "https://api.groq.com/openai/v1";
    public static final String DEFAULT_MODEL = "llama-3.3-70b-versatile";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public LlmConfig {
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (!"http".equals(baseUrl.getScheme()) && !"https".equals(baseUrl.getScheme())) {
            throw new IllegalArgumentException("the chat endpoint must be an http or https URL, got " + baseUrl);
        }
        if (model == null || model.isBlank()) throw new IllegalArgumentException("a chat model name is required");
        model = model.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }

    /**
     * The endpoint these variables configure, or empty when none is: a model counts as configured
     * when a URL ({@value #URL} / {@value #AI_API_BASE}) or a key ({@value #KEY} / {@value #AI_API_KEY} /
     * {@value #GROQ_API_KEY}) is set. A key alone means Groq, as in brain-tools. Engram's names win
     * over brain-tools'. A malformed value is an {@link IllegalArgumentException} naming the variable.
     */
    public static Optional<LlmConfig> fromEnvironment(Map<String, String> env) {
        if (!configured(env)) return Optional.empty();
        String url = first(env, URL, AI_API_BASE);
        String key = first(env, KEY, AI_API_KEY, GROQ_API_KEY);
        String model = first(env, MODEL, AI_MODEL);
        Duration timeout = DEFAULT_TIMEOUT;
        String ms = first(env, TIMEOUT_MS);
        if (ms != null) {
            if (!ms.matches("\\d{1,7}") || Long.parseLong(ms) == 0) {
                throw new IllegalArgumentException(TIMEOUT_MS + " must be a positive number of milliseconds, got '" + ms + "'");
            }
            timeout = Duration.ofMillis(Long.parseLong(ms));
        }
        URI base;
        try {
            base = URI.create(url == null ? GROQ_BASE : url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((env.get(URL) != null ? URL : AI_API_BASE) + " is not a URL: '" + url
                    + "'; send the API root, e.g. http://127.0.0.1:11434/v1", e);
        }
        if (base.getScheme() == null || !(base.getScheme().equals("http") || base.getScheme().equals("https"))) {
            throw new IllegalArgumentException((env.get(URL) != null ? URL : AI_API_BASE) + " must be an http(s) URL, got '"
                    + url + "'; e.g. http://127.0.0.1:11434/v1");
        }
        return Optional.of(new LlmConfig(base, model == null ? DEFAULT_MODEL : model, key, timeout));
    }

    /**
     * Whether these variables name a chat model at all (a URL or a key), well-formed or not: what
     * {@link #fromEnvironment} reads a configuration from, or fails on.
     */
    public static boolean configured(Map<String, String> env) {
        return first(env, URL, AI_API_BASE) != null || first(env, KEY, AI_API_KEY, GROQ_API_KEY) != null;
    }

    /** The profile-setting names ({@code ProfileContext#settings}) the command line passes a checked model under. */
    public static final String SETTING_URL = "llm.url", SETTING_MODEL = "llm.model", SETTING_KEY = "llm.key",
            SETTING_TIMEOUT_MS = "llm.timeout-ms";

    /** This configuration as profile settings (read back by {@link #fromSettings}). */
    public Map<String, String> toSettings() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        out.put(SETTING_URL, baseUrl.toString());
        out.put(SETTING_MODEL, model);
        if (apiKey != null) out.put(SETTING_KEY, apiKey);
        out.put(SETTING_TIMEOUT_MS, Long.toString(timeout.toMillis()));
        return out;
    }

    /** The model in these profile settings, or empty when they name none. */
    public static Optional<LlmConfig> fromSettings(Map<String, String> settings) {
        String url = settings.get(SETTING_URL);
        if (url == null) return Optional.empty();
        String ms = settings.get(SETTING_TIMEOUT_MS);
        return Optional.of(new LlmConfig(URI.create(url), settings.get(SETTING_MODEL), settings.get(SETTING_KEY),
                ms == null ? null : Duration.ofMillis(Long.parseLong(ms))));
    }

    /** {@code {base}/chat/completions}, one slash between. */
    public URI chatUri() {
        String b = baseUrl.toString();
        return URI.create(b.endsWith("/") ? b + "chat/completions" : b + "/chat/completions");
    }

    private static String first(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) return v.strip();
        }
        return null;
    }

    @Override
    public String toString() {
        // the key stays out of logs and messages
        return "LlmConfig[" + model + " at " + baseUrl + (apiKey == null ? ", no key" : ", key set") + ", timeout "
                + timeout.toMillis() + " ms]";
    }
}
