package dev.engram.cli.hook;

import dev.engram.llm.ChatModel;
import dev.engram.llm.ChatModels;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.mcp.json.JsonText;
import dev.engram.rank.Freshness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code engram hook stop}, for Claude Code's Stop event: after a turn, a model reads the exchange
 * and the names already in memory and says what is worth keeping (brain-tools' SAVE / DO NOT SAVE
 * rules); those entities are saved and the ones it confirms are verified. Without a model it does
 * nothing. It never throws: a hook must not break the agent.
 */
public final class StopHook {
    /** The entity types the model may use (brain-tools' list). */
    static final Set<String> TYPES = Set.of("Person", "Project", "Decision", "Rule", "Bug", "Concept", "Tool");

    /** What the hook did, for logs and tests. */
    public record Outcome(String skipped, List<String> saved, List<String> verified) {
        static Outcome skip(String why) {
            return new Outcome(why, List.of(), List.of());
        }
    }

    private final HookMemory memory;
    private final Optional<ChatModel> model;
    private final HookSettings settings;
    private final JsonText json;
    private final Consumer<String> log;

    public StopHook(HookMemory memory, Optional<ChatModel> model, HookSettings settings, JsonText json, Consumer<String> log) {
        this.memory = memory;
        this.model = model;
        this.settings = settings;
        this.json = json;
        this.log = log;
    }

    public Outcome run(HookInput input) {
        try {
            if (model.isEmpty()) return Outcome.skip("no model is configured (set ENGRAM_LLM_URL or ENGRAM_LLM_KEY)");
            List<Transcript.Message> messages = Transcript.tail(input.text("transcript_path"),
                    settings.saveTranscriptLines(), 400, true, json::readObject, m -> log.accept("engram hook stop: " + m));
            if (messages.isEmpty()) return Outcome.skip("no messages in the transcript");
            int assistantWords = messages.stream().filter(m -> m.role().equals("assistant"))
                    .mapToInt(m -> Transcript.words(m.text())).sum();
            if (assistantWords < settings.minAssistantWords()) {
                return Outcome.skip("the assistant said " + assistantWords + " words, fewer than "
                        + settings.minAssistantWords());
            }
            String zone = settings.zones().get(0);
            String cwd = input.text("cwd");
            String project = cwd == null || cwd.isBlank() ? zone
                    : Optional.ofNullable(Path.of(cwd).getFileName()).map(Path::toString).orElse(zone);
            String combined = messages.stream().map(Transcript.Message::text).collect(Collectors.joining(" "));
            List<String> existing = memory.related(zone, combined.length() > 400 ? combined.substring(0, 400) : combined, 15);
            Map<String, Object> decision = decide(messages, existing, project, cwd == null ? "" : cwd);
            List<HookMemory.SaveItem> items = items(decision.get("save"));
            List<String> saved = items.stream().map(HookMemory.SaveItem::name).toList();
            if (!items.isEmpty()) memory.save(zone, items);
            List<String> verified = new ArrayList<>();
            if (decision.get("verify") instanceof List<?> names) {
                for (Object n : names) {
                    if (n instanceof String s && !s.isBlank() && memory.verify(zone, s.strip())) verified.add(s.strip());
                }
            }
            return new Outcome(null, saved, verified);
        } catch (LlmException e) {
            log.accept("engram hook stop: nothing saved, the model did not answer: " + e.getMessage());
            return Outcome.skip("the model did not answer");
        } catch (RuntimeException e) {
            log.accept("engram hook stop: nothing saved: " + e.getMessage());
            return Outcome.skip("failed: " + e.getMessage());
        }
    }

    private Map<String, Object> decide(List<Transcript.Message> messages, List<String> existing, String project, String cwd) {
        String exchange = messages.stream().map(m -> m.role().toUpperCase(java.util.Locale.ROOT) + ": " + m.text())
                .collect(Collectors.joining("\n\n"));
        String known = existing.isEmpty() ? "Nothing related is in memory yet."
                : "Already in memory:\n" + existing.stream().map(n -> "- " + n).collect(Collectors.joining("\n"));
        String system = "You read one exchange between a user and a coding agent and decide what a knowledge-graph memory "
                + "should keep from it.\n\nProject: " + project + " (" + cwd + ")\n\n"
                + "Keep:\n- an approach that failed, and why\n- a design or architecture decision, and its reason\n"
                + "- a correction or a stated preference of the user\n- a fact that was hard to find out\n\n"
                + "Do not keep:\n- code, file contents or anything the sources say\n- git history or recent changes\n"
                + "- the state of the task in progress\n- what the memory already holds (listed below)\n"
                + "- general programming knowledge\n\n"
                + "Names must be unambiguous across projects: prefix project-specific knowledge with the project name "
                + "(\"" + project + ": build needs Java 17\").\n"
                + "reviewInterval in days: 1-7 for volatile facts, 14-30 for project state, 90-365 for stable facts "
                + "and preferences.\n\nAnswer with this JSON object alone:\n"
                + "{\"save\": [{\"name\": \"...\", \"entityType\": \"Person|Project|Decision|Rule|Bug|Concept|Tool\", "
                + "\"observations\": [\"...\"], \"reviewInterval\": 7}], \"verify\": [\"existing name still true\"]}\n"
                + "Answer {\"save\": [], \"verify\": []} when nothing is worth keeping.";
        String answer = model.orElseThrow().complete(new ChatPrompt(system, known + "\n\nExchange:\n" + exchange, 0.2, 600,
                settings.saveAiTimeout()));
        return ChatModels.jsonObject(answer, json);
    }

    /** The model's save list, cleaned: no blank names or observations, a known type, an interval within 1..365. */
    static List<HookMemory.SaveItem> items(Object save) {
        List<HookMemory.SaveItem> out = new ArrayList<>();
        if (!(save instanceof List<?> list)) return out;
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> m) || !(m.get("name") instanceof String name) || name.isBlank()) continue;
            String type = m.get("entityType") instanceof String t && TYPES.contains(t.strip()) ? t.strip() : "Concept";
            List<String> observations = new ArrayList<>();
            if (m.get("observations") instanceof List<?> obs) {
                for (Object x : obs) if (x instanceof String s && !s.isBlank()) observations.add(s.strip());
            }
            int interval = m.get("reviewInterval") instanceof Number n
                    ? (int) Math.max(1, Math.min(Freshness.MAX_REVIEW_INTERVAL_DAYS, n.longValue()))
                    : Freshness.DEFAULT_REVIEW_INTERVAL_DAYS;
            out.add(new HookMemory.SaveItem(name.strip(), type, observations, interval));
        }
        return out;
    }
}
