package dev.engram.llm;

import dev.engram.mcp.json.JsonText;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finding the configured model, and reading the JSON that models wrap in prose or fences. */
public final class ChatModels {
    private static final Logger log = LoggerFactory.getLogger(ChatModels.class);
    private static final Pattern FENCE = Pattern.compile("^```(?:json)?\\s*|\\s*```$", Pattern.CASE_INSENSITIVE);

    private ChatModels() {
    }

    /**
     * The model these variables configure, or empty ("no model": callers take their deterministic
     * path). A malformed setting is logged to stderr and also means no model: a typo in an optional
     * setting must not stop the server.
     */
    public static Optional<ChatModel> fromEnvironment(Map<String, String> env, JsonText json) {
        try {
            return LlmConfig.fromEnvironment(env).map(c -> new OpenAiChatClient(c, json));
        } catch (IllegalArgumentException e) {
            log.warn("no chat model: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The first JSON object in a model's answer: fences stripped, prose around it skipped.
     * {@link LlmException} when there is none.
     */
    public static Map<String, Object> jsonObject(String answer, JsonText json) {
        String s = FENCE.matcher(answer.strip()).replaceAll("").strip();
        int start = s.indexOf('{');
        int end = s.lastIndexOf('}');
        if (start < 0 || end <= start) throw new LlmException("the model answered without a JSON object: " + shorten(s));
        try {
            return json.readObject(s.substring(start, end + 1));
        } catch (IllegalArgumentException e) {
            throw new LlmException("the model answered with malformed JSON: " + shorten(s), e);
        }
    }

    private static String shorten(String s) {
        Matcher m = Pattern.compile("\\s+").matcher(s);
        String flat = m.replaceAll(" ");
        return flat.length() <= 200 ? flat : flat.substring(0, 200) + "…";
    }
}
