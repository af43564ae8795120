package dev.engram.mcp.profile.brain;

import dev.engram.llm.ChatModel;
import dev.engram.llm.LlmConfig;
import dev.engram.llm.OpenAiChatClient;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mcp-brain-tools face (seed-systems §4): its 21 tools with the same names, arguments, required
 * fields and {@code JSON.stringify(data, null, 2)} text, on Engram's entity graph, zones and ranking.
 * The zone argument is {@code memory_zone}. No resources or prompts, as brain-tools has none. The
 * model-backed parts (inspect_*, the search and zone filters) use the chat model of ENGRAM_LLM_* /
 * AI_* when one is configured and answer deterministically otherwise.
 */
public final class BrainProfile {
    public static final String NAME = "brain";
    static final String INSTRUCTIONS = """
            A knowledge graph memory split into zones (memory_zone; "default" always exists).
            Before a task, search_nodes with a few words (AND/OR/NOT, "phrases", * and ~ work); entities carry a
            confidence (fresh, normal, aging, stale, archival): verify aging or stale ones before acting, then call
            verify_entity. Save decisions, corrections and hard-won facts with create_entities / add_observations,
            not what the code or git history already says.""";

    private BrainProfile() {
    }

    /** The profile with the chat model the command line checked and passed in the context's settings, if any. */
    public static ToolProfile create(ProfileContext context, JsonText json) {
        Optional<ChatModel> model = LlmConfig.fromSettings(context.settings()).map(c -> new OpenAiChatClient(c, json));
        return create(context, json, model, Clock.systemUTC());
    }

    public static ToolProfile create(ProfileContext context, JsonText json, Optional<ChatModel> model, Clock clock) {
        BrainContext c = new BrainContext(context.withZoneArgument(BrainContext.ZONE_ARGUMENT), model, clock, json);
        List<ToolHandler> tools = new ArrayList<>();
        tools.add(new InspectFilesTool(c).tool());
        SearchTools search = new SearchTools(c);
        tools.add(search.inspectKnowledgeGraph());
        EntityTools entities = new EntityTools(c);
        tools.add(entities.createEntities());
        tools.add(entities.updateEntities());
        tools.add(entities.deleteEntities());
        RelationTools relations = new RelationTools(c);
        tools.addAll(relations.tools());
        tools.add(search.searchNodes());
        tools.add(entities.openNodes());
        tools.add(entities.addObservations());
        tools.add(entities.markImportant());
        tools.add(entities.getRecent());
        tools.addAll(new ZoneTools(c).tools());
        tools.add(tools.size() - 1, entities.verifyEntity()); // brain-tools lists verify_entity just before get_time_utc
        return new ToolProfile(NAME, INSTRUCTIONS, tools, List.of(), List.of());
    }
}
