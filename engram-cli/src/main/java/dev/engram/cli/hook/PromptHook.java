package dev.engram.cli.hook;

import dev.engram.llm.ChatModel;
import dev.engram.llm.ChatModels;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.mcp.json.JsonText;
import dev.engram.rank.Freshness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code engram hook prompt}, for Claude Code's UserPromptSubmit: the memories relevant to the prompt,
 * printed as {@code <memory zone="z">} blocks the agent reads before it answers. Short prompts and
 * conversational filler ("ok", "thanks", "go ahead") get nothing. Archival entities are left out. With
 * a model, one call picks the strictly relevant candidates (brain-tools' filter); without one, or
 * when it fails, the ranked candidates are printed as they are.
 */
public final class PromptHook {
    /** brain-tools' filler rule: a whole prompt that is only an acknowledgement. */
    static final Pattern FILLER = Pattern.compile("^(ok|okay|yes|no|sure|thanks|thank you|great|perfect|done|got it"
            + "|sounds good|agreed|continue|resume|go ahead|proceed|right|correct|exactly|good|nice|cool|yep|nope|k|y|n)"
            + "[\\s!.?]*$", Pattern.CASE_INSENSITIVE);
    static final int OBSERVATIONS_SHOWN = 3;

    private final HookMemory memory;
    private final Optional<ChatModel> model;
    private final HookSettings settings;
    private final JsonText json;
    private final java.util.function.Consumer<String> log;

    public PromptHook(HookMemory memory, Optional<ChatModel> model, HookSettings settings, JsonText json,
                      java.util.function.Consumer<String> log) {
        this.memory = memory;
        this.model = model;
        this.settings = settings;
        this.json = json;
        this.log = log;
    }

    /** Whether a prompt is worth a recall: enough words and not filler. */
    boolean worthRecalling(String prompt) {
        if (prompt == null || prompt.isBlank()) return false;
        return Transcript.words(prompt) >= settings.minWords() && !FILLER.matcher(prompt.strip()).matches();
    }

    /** The text to print for this event (empty for nothing); never throws. */
    public String run(HookInput input) {
        try {
            String prompt = input.text("prompt");
            if (!worthRecalling(prompt)) return "";
            Map<String, List<HookMemory.Recalled>> byZone = new LinkedHashMap<>();
            for (String zone : settings.zones()) {
                List<HookMemory.Recalled> found = memory.recall(zone, prompt, settings.maxResults()).stream()
                        .filter(r -> r.freshness().value() >= Freshness.PROGRESSIVE_THRESHOLDS.get(1))
                        .toList();
                if (!found.isEmpty()) byZone.put(zone, found);
            }
            if (byZone.isEmpty()) return "";
            Set<String> keep = relevant(input, prompt, byZone);
            return render(byZone, keep);
        } catch (RuntimeException e) {
            log.accept("engram hook prompt: " + e.getMessage());
            return "";
        }
    }

    /** The names to print: the model's choice, or every candidate without a model. */
    private Set<String> relevant(HookInput input, String prompt, Map<String, List<HookMemory.Recalled>> byZone) {
        Set<String> all = byZone.values().stream().flatMap(List::stream).map(HookMemory.Recalled::name)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        if (model.isEmpty()) return all;
        String context = Transcript.tail(input.text("transcript_path"), settings.contextLines(), 300, false, json::readObject,
                        m -> log.accept("engram hook prompt: " + m))
                .stream().map(m -> m.role() + ": " + m.text()).collect(Collectors.joining("\n"));
        String candidates = byZone.values().stream().flatMap(List::stream)
                .map(r -> "- " + r.name() + " (" + r.entityType() + ")").collect(Collectors.joining("\n"));
        String system = "You decide which memory entries matter for the user's current task.\n"
                + "Given the conversation and a list of memory entities, answer with one JSON object:\n"
                + "  \"query\": 3 to 7 comma-separated search terms for what the user is working on\n"
                + "  \"relevant\": [\"entity name\", ...], only the entities that truly bear on the task\n"
                + "Leave out entities that only share a word with the task. Answer with the JSON object alone.";
        String user = (context.isEmpty() ? "" : "Recent conversation:\n" + context + "\n\n")
                + "Current message: " + prompt + "\n\nMemory candidates:\n" + candidates;
        try {
            String answer = model.get().complete(new ChatPrompt(system, user, 0.1, 200, settings.aiTimeout()));
            Map<String, Object> parsed = ChatModels.jsonObject(answer, json);
            Set<String> chosen = new HashSet<>();
            if (parsed.get("relevant") instanceof List<?> names) {
                for (Object n : names) if (n instanceof String s) chosen.add(s);
            }
            Set<String> kept = new java.util.LinkedHashSet<>(all);
            kept.retainAll(chosen);
            return kept;
        } catch (LlmException e) {
            // a slow or broken model costs the filter, not the memories
            log.accept("engram hook prompt: model filter skipped: " + e.getMessage());
            return all;
        }
    }

    /** {@code <memory zone="z">} blocks in brain-tools' shape, whole entities only, within {@link HookSettings#MAX_OUTPUT_CHARS}. */
    static String render(Map<String, List<HookMemory.Recalled>> byZone, Set<String> keep) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<HookMemory.Recalled>> e : byZone.entrySet()) {
            String open = "<memory zone=\"" + e.getKey().replace("\"", "") + "\">\n";
            String close = "</memory>\n";
            List<String> entries = new ArrayList<>();
            int size = out.length() + open.length() + close.length();
            for (HookMemory.Recalled r : e.getValue()) {
                if (!keep.contains(r.name())) continue;
                StringBuilder entry = new StringBuilder("  - **").append(r.name()).append("** (").append(r.entityType())
                        .append(r.freshness().needsReview() ? " ⚠ needs review" : "").append(")\n");
                r.observations().stream().limit(OBSERVATIONS_SHOWN).forEach(o -> entry.append("    - ").append(o).append('\n'));
                if (size + entry.length() > HookSettings.MAX_OUTPUT_CHARS) break;
                size += entry.length();
                entries.add(entry.toString());
            }
            if (entries.isEmpty()) continue;
            out.append(open);
            entries.forEach(out::append);
            out.append(close);
        }
        return out.toString();
    }
}
