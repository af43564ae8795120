package dev.engram.mcp.profile.memento;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import java.time.Clock;
import java.util.List;

/**
 * The Memento MCP face (seed-systems §2): its tools with Memento's names, argument names (topic, keywords,
 * importance 0..1, linkedTo, isAnchor, supersedes, scope, idempotencyKey, dryRun), defaults and JSON answers,
 * on Engram's engine. The zone argument is {@code workspace}. Importance decays by type on read
 * ({@link dev.engram.rank.TypedDecay#MEMENTO}). Memento's self-update tools (check_update, apply_update) are
 * left out: they git-pull Memento's own server.
 */
public final class MementoProfile {
    public static final String NAME = "memento";
    static final String INSTRUCTIONS = """
            Long-term memory as atomic fragments (1-3 sentences). At the start of a session call context.
            Save with remember (content, topic, type: fact, decision, error, preference, procedure, relation, episode;
            keywords; importance 0..1). Search with recall (keywords first, text for meaning). When an error is solved,
            forget the error and remember the procedure; at the end call reflect.""";

    private MementoProfile() {
    }

    public static ToolProfile create(ProfileContext context, JsonText json) {
        return create(context, Clock.systemUTC());
    }

    public static ToolProfile create(ProfileContext context, Clock clock) {
        MementoContext c = new MementoContext(context.withZoneArgument(MementoContext.ZONE_ARGUMENT), clock);
        WriteTools w = new WriteTools(c);
        ReadTools r = new ReadTools(c);
        LifecycleTools l = new LifecycleTools(c);
        List<ToolHandler> tools = List.of(r.context(), w.remember(), w.batchRemember(), r.recall(), w.reflect(), w.forget(),
                w.link(), w.amend(), r.graphExplore(), r.fragmentHistory(), r.memoryStats(), l.memoryConsolidate(),
                l.toolFeedback(), l.skillGuide(), new HistoryTool(c).tool(), r.searchTraces(), l.sessionRotate());
        MementoExtras extras = new MementoExtras(c, r);
        return new ToolProfile(NAME, INSTRUCTIONS, tools, extras.resources(), extras.prompts());
    }
}
