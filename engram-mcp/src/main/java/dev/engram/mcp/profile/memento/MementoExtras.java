package dev.engram.mcp.profile.memento;

import static dev.engram.mcp.profile.memento.MementoTool.map;

import dev.engram.mcp.json.JsStringify;
import dev.engram.mcp.profile.Guarded;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.TransportSession;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.rank.CompositeRank;
import dev.engram.rank.TypedDecay;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Memento's resources ({@code memory://stats}, {@code memory://topics}, {@code memory://config},
 * {@code memory://active-session}) and prompts ({@code analyze-session}, {@code retrieve-relevant-memory},
 * {@code onboarding}), as JSON and as the user messages Memento's prompts send, for the default workspace.
 */
final class MementoExtras {
    private static final String JSON = "application/json";
    private final MementoContext c;
    private final ReadTools reads;

    MementoExtras(MementoContext c, ReadTools reads) {
        this.c = c;
        this.reads = reads;
    }

    List<SyncResourceSpecification> resources() {
        return List.of(
                Guarded.resource(resource("memory://stats", "stats", "Fragment counts by type and tier, anchors, topics and "
                        + "the average importance after decay (what memory_stats answers)"), () -> JsStringify.pretty(stats())),
                Guarded.resource(resource("memory://topics", "topics", "Every topic of the workspace, sorted"),
                        () -> JsStringify.pretty(topics())),
                Guarded.resource(resource("memory://config", "config", "The constants this profile runs with: default "
                        + "importance by type, decay half-lives and floor, tier rules, ranking weights, limits"),
                        () -> JsStringify.pretty(config())),
                Guarded.resource(resource("memory://active-session", "active-session", "What this session has written: "
                        + "fragments by type, the latest ones and when"), (McpSyncServerExchange e) -> JsStringify.pretty(activeSession(e))));
    }

    private static Resource resource(String uri, String name, String description) {
        return Resource.builder(uri, name).description(description).mimeType(JSON).build();
    }

    private Object stats() {
        return reads.stats(c.profile.defaultZone()).get("stats");
    }

    private List<String> topics() {
        TreeSet<String> out = new TreeSet<>();
        for (Memory m : c.live(c.profile.defaultZone())) {
            String t = c.fragments.topicOf(m);
            if (t != null) out.add(t);
        }
        return List.copyOf(out);
    }

    static Map<String, Object> config() {
        Map<String, Object> importance = new LinkedHashMap<>();
        Map<String, Object> halfLife = new LinkedHashMap<>();
        for (String t : Fragments.TYPES) {
            importance.put(t, Fragments.defaultImportance(t));
            MemoryType engine = Fragments.engineType(t);
            halfLife.put(t, TypedDecay.MEMENTO.exempt().contains(engine) ? "never" : TypedDecay.MEMENTO.halfLifeDays(engine));
        }
        return map(
                "defaultImportance", importance,
                "decay", map("halfLifeDays", halfLife, "floor", TypedDecay.MEMENTO.floor(),
                        "exempt", "anchors, the permanent tier, and the types whose half-life is never",
                        "formula", "importance × 2^(−days / (halfLife × min(2, 1 + 0.1 × reads)))"),
                "tiers", map("permanent", "preference, anchor or importance ≥ 0.8",
                        "hot", "read within 7 days, or an error or procedure not idle 30 days",
                        "warm", "an episode or importance ≥ 0.5, not idle 30 days and above 0.3 after decay",
                        "cold", "everything else", "short", "scope session (expires after 24 h)"),
                "ranking", map("importance", CompositeRank.MEMENTO.importanceWeight(), "recency", CompositeRank.MEMENTO.recencyWeight(),
                        "match", CompositeRank.MEMENTO.matchWeight(), "recencyHalfLifeDays", CompositeRank.MEMENTO.recencyHalfLifeDays(),
                        "formula", "match × match weight + match × (importance × its weight + 2^(−days / half-life) × recency weight)"),
                "limits", map("contentChars", Fragments.MAX_CHARS, "episodeChars", Fragments.MAX_EPISODE_CHARS,
                        "batchRemember", WriteTools.MAX_BATCH, "recallTokenBudget", ReadTools.DEFAULT_RECALL_BUDGET,
                        "contextTokenBudget", ReadTools.DEFAULT_CONTEXT_BUDGET));
    }

    private Map<String, Object> activeSession(McpSyncServerExchange exchange) {
        Implementation client = exchange.getClientInfo();
        String clientName = client == null ? null : client.name();
        // what the session wrote is recorded under the transport's id, which a rotation keeps
        String session = Caller.session(clientName, exchange.sessionId());
        // what the client presents now: after session_rotate or POST /session/rotate, the newest id, never the retired one
        String shown = session;
        var ctx = exchange.transportContext();
        if (exchange.sessionId() != null && ctx != null && ctx.get(TransportSession.KEY) instanceof TransportSession t
                && t.id().equals(exchange.sessionId())) {
            shown = Caller.session(clientName, t.currentId());
        }
        List<Memory> written = new ArrayList<>();
        if (session != null) {
            for (Memory m : c.live(c.profile.defaultZone())) if (session.equals(m.session())) written.add(m);
        }
        written.sort(Comparator.comparing(Memory::createdAt).reversed());
        Map<String, Long> byType = new TreeMap<>();
        for (Memory m : written) byType.merge(Fragments.typeOf(m), 1L, Long::sum);
        List<Map<String, Object>> latest = written.stream().limit(10).map(m -> c.fragments.render(m, c.clock)).toList();
        return map("sessionId", shown == null ? "unknown" : shown, "workspace", c.profile.defaultZone(),
                "fragmentsWritten", (long) written.size(), "byType", byType,
                "lastWriteAt", written.isEmpty() ? null : written.get(0).createdAt().toString(), "latest", latest);
    }

    List<SyncPromptSpecification> prompts() {
        Prompt analyze = Prompt.builder("analyze-session").title("Analyze this session")
                .description("Sort what happened in this session into what reflect stores: decisions, resolved errors, "
                        + "new procedures and open questions")
                .arguments(List.of(PromptArgument.builder("focus").description("What to focus on, e.g. technical decisions")
                        .required(false).build())).build();
        Prompt retrieve = Prompt.builder("retrieve-relevant-memory").title("Retrieve relevant memory")
                .description("Search past fragments about a topic, by keywords and by meaning")
                .arguments(List.of(PromptArgument.builder("topic").description("The topic to search").required(true).build()))
                .build();
        Prompt onboarding = Prompt.builder("onboarding").title("Memory onboarding")
                .description("How to use this memory: when to call remember, recall and reflect").arguments(List.of()).build();
        return List.of(
                Guarded.prompt(analyze, args -> {
                    String focus = promptText(args, "focus");
                    String on = focus == null ? "" : " Focus on " + focus + ".";
                    return "Analyse the important information of this session so it can be saved with the reflect tool." + on
                            + " List:\n1. decisions that were settled (decisions)\n2. errors that were resolved and how "
                            + "(errors_resolved)\n3. procedures or workflows newly established (new_procedures)\n4. questions "
                            + "or follow-ups still open (open_questions)\nWhen you are done I will call reflect to store them.";
                }),
                Guarded.prompt(retrieve, args -> {
                    String t = promptText(args, "topic");
                    if (t == null) {
                        throw new dev.engram.error.EngramUserException("Name the topic to search: this prompt needs its topic"
                                + " argument, e.g. topic = \"redis\".");
                    }
                    return "Find past memories about '" + t + "', the topic I am working on, with the recall tool: pass "
                            + "keywords, and also the text parameter for a search by meaning. If you find any, tell me how "
                            + "they apply to the current work.";
                }),
                Guarded.prompt(onboarding, args -> "Explain how to use this memory well: when and how to use its three core "
                        + "tools, remember, recall and reflect, with examples. " + LifecycleTools.guide().get("overview")));
    }

    /** Longer than this, a prompt argument is not a focus or a topic but a paste; it is refused rather than echoed. */
    private static final int MAX_PROMPT_ARGUMENT = 500;

    /** A prompt's string argument, stripped; null when absent or blank; anything else is refused in words. */
    private static String promptText(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v == null) return null;
        if (!(v instanceof String s)) {
            throw new dev.engram.error.EngramUserException("The " + name + " argument must be text, e.g. " + name + " = \"redis\".");
        }
        if (s.isBlank()) return null;
        if (s.strip().length() > MAX_PROMPT_ARGUMENT) {
            throw new dev.engram.error.EngramUserException("The " + name + " argument is " + s.strip().length()
                    + " characters; send at most " + MAX_PROMPT_ARGUMENT + ", a few words.");
        }
        return s.strip();
    }
}
