package dev.engram.engine.lifecycle;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import java.time.Instant;
import java.util.List;

/**
 * One rating of a tool's answer by an agent, as kept in a zone's feedback log ({@link FeedbackLog}): which tool,
 * whether the answer was relevant and sufficient, an optional suggestion and context, how it was triggered
 * ({@code voluntary} or {@code sampled}), the memories it named, the session and when. {@code id} counts the zone's
 * ratings from 1; {@code at}, {@code session} and {@code id} are set when the rating is logged
 * ({@link Maintenance#feedback}).
 */
public record ToolFeedback(long id, Instant at, String session, String tool, boolean relevant, boolean sufficient,
                           String suggestion, String context, String trigger, List<String> memoryIds) {
    public static final int MAX_TOOL = 64, MAX_SUGGESTION = 100, MAX_CONTEXT = 50, MAX_IDS = 20;
    public static final List<String> TRIGGERS = List.of("voluntary", "sampled");

    public ToolFeedback {
        if (tool == null || tool.isBlank()) {
            throw new InvalidArgumentException("tool_name", "is required: the tool the feedback is about, e.g. recall");
        }
        tool = tool.strip();
        MemoryRules.requireWellFormed("tool_name", tool);
        if (tool.length() > MAX_TOOL) {
            throw new InvalidArgumentException("tool_name", "is " + tool.length() + " characters; send at most " + MAX_TOOL);
        }
        if (tool.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidArgumentException("tool_name", "has a control character; send the tool's name, e.g. recall");
        }
        suggestion = bounded("suggestion", suggestion, MAX_SUGGESTION);
        context = bounded("context", context, MAX_CONTEXT);
        trigger = trigger == null || trigger.isBlank() ? "voluntary" : trigger.strip();
        if (!TRIGGERS.contains(trigger)) {
            throw new InvalidArgumentException("trigger_type", MemoryRules.shown(trigger) + " is not a trigger; send voluntary or sampled");
        }
        memoryIds = memoryIds == null ? List.of() : List.copyOf(memoryIds.subList(0, Math.min(MAX_IDS, memoryIds.size())));
    }

    /** A rating to log: the tool's name and the verdict, with the optional parts (null when absent). */
    public static ToolFeedback of(String tool, boolean relevant, boolean sufficient, String suggestion, String context,
                                  String trigger) {
        return new ToolFeedback(0, null, null, tool, relevant, sufficient, suggestion, context, trigger, List.of());
    }

    ToolFeedback logged(long id, Instant at, String session, List<String> memoryIds) {
        return new ToolFeedback(id, at, session, tool, relevant, sufficient, suggestion, context, trigger, memoryIds);
    }

    private static String bounded(String field, String value, int max) {
        if (value == null || value.isBlank()) return null;
        String v = value.strip();
        MemoryRules.requireWellFormed(field, v);
        if (v.length() > max) throw new InvalidArgumentException(field, "is " + v.length() + " characters; send at most " + max);
        return v;
    }
}
