package dev.engram.llm;

import dev.engram.engine.lifecycle.ContradictionJudge;
import dev.engram.mcp.json.JsonText;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link ContradictionJudge} over a configured chat model (ENGRAM_LLM_* / AI_* settings): one short prompt per
 * pair, asking for {@code {"verdict": "contradiction" | "entailment" | "unrelated"}}. An answer without a known
 * verdict, a timeout or an HTTP failure is an {@link LlmException}: the consolidation step leaves the pair undecided.
 * The model only ever adds a {@code contradicts} link and lowers the older memory; it never deletes anything.
 */
public final class ChatContradictionJudge implements ContradictionJudge {
    static final String SYSTEM = "You compare two statements from a software project's memory. Answer with one JSON "
            + "object and nothing else: {\"verdict\": \"contradiction\"} when both cannot be true at once, "
            + "{\"verdict\": \"entailment\"} when one follows from the other or they say the same, "
            + "{\"verdict\": \"unrelated\"} otherwise.";
    /** A verdict is a few tokens; a consolidation cycle should not wait long on one pair. */
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    private final ChatModel model;
    private final JsonText json;

    public ChatContradictionJudge(ChatModel model, JsonText json) {
        this.model = model;
        this.json = json;
    }

    /** The judge over the model these profile settings configure, or empty when they configure none. */
    public static Optional<ContradictionJudge> fromSettings(Map<String, String> settings, JsonText json) {
        return LlmConfig.fromSettings(settings).map(c -> new ChatContradictionJudge(new OpenAiChatClient(c, json), json));
    }

    @Override
    public Verdict judge(String older, String newer) {
        String user = "Statement A (older): " + older + "\nStatement B (newer): " + newer;
        String answer = model.complete(ChatPrompt.of(SYSTEM, user, 30).withTimeout(TIMEOUT));
        Object v = ChatModels.jsonObject(answer, json).get("verdict");
        String verdict = v == null ? "" : v.toString().strip().toLowerCase(Locale.ROOT);
        return switch (verdict) {
            case "contradiction", "contradicts", "contradictory" -> Verdict.CONTRADICTION;
            case "entailment", "entails", "same" -> Verdict.ENTAILMENT;
            case "unrelated", "neutral" -> Verdict.UNRELATED;
            default -> throw new LlmException(model.describe() + " gave no known verdict (contradiction, entailment or "
                    + "unrelated): " + (verdict.isEmpty() ? "none" : verdict));
        };
    }

    @Override
    public String toString() {
        return "chat judge " + model.describe();
    }
}
