package dev.engram.cli.hook;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The hooks' settings, under brain-tools' names and defaults so an existing hook setup keeps its
 * tuning. A malformed number falls back to its default (a hook must never fail on its settings).
 */
public record HookSettings(List<String> zones, int contextLines, int maxResults, Duration aiTimeout, int minWords,
                           int saveTranscriptLines, Duration saveAiTimeout, int minAssistantWords, Duration stdinTimeout) {
    /** What {@code engram hook prompt} prints at most. */
    public static final int MAX_OUTPUT_CHARS = 10_000;

    public HookSettings {
        zones = List.copyOf(zones);
    }

    /** From the environment; {@code defaultZone} is used when MEMORY_HOOK_ZONES names none. */
    public static HookSettings from(Map<String, String> env, String defaultZone) {
        String z = env.get("MEMORY_HOOK_ZONES");
        List<String> zones = z == null ? List.of() : Arrays.stream(z.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        return new HookSettings(zones.isEmpty() ? List.of(defaultZone) : zones,
                number(env, "MEMORY_HOOK_CONTEXT_LINES", 20),
                number(env, "MEMORY_HOOK_MAX_RESULTS", 10),
                Duration.ofMillis(number(env, "MEMORY_HOOK_AI_TIMEOUT", 4000)),
                number(env, "MEMORY_HOOK_MIN_WORDS", 5),
                number(env, "MEMORY_SAVE_TRANSCRIPT_LINES", 60),
                Duration.ofMillis(number(env, "MEMORY_SAVE_AI_TIMEOUT", 8000)),
                number(env, "MEMORY_SAVE_MIN_ASSISTANT_WORDS", 20),
                Duration.ofSeconds(5));
    }

    private static int number(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        if (v == null || !v.strip().matches("\\d{1,7}")) return fallback;
        int n = Integer.parseInt(v.strip());
        return n == 0 && !name.endsWith("WORDS") ? fallback : n;
    }
}
