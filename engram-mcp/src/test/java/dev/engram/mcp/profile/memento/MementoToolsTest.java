package dev.engram.mcp.profile.memento;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.TransportSession;
import dev.engram.engine.session.SessionRotation;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every Memento tool with Memento's argument names, its answers' shapes, and its refusals of bad input. */
class MementoToolsTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), clock);

    private CallToolResult call(String tool, Map<String, Object> args) {
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    /** A call from MCP session {@code session} (the transport's id, as ToolAdapter records it). */
    @SuppressWarnings("unchecked")
    private Map<String, Object> okIn(String session, String tool, Object... kv) {
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        CallToolResult r = ToolAdapter.call(h, args(kv), new Caller(session, null));
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    private static List<String> ids(Map<String, Object> r) {
        return fragments(r).stream().map(f -> (String) f.get("id")).toList();
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String tool, Object... kv) {
        CallToolResult r = call(tool, args(kv));
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + text(r));
        assertTrue(text(r).startsWith("{"), text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    private String error(String tool, Object... kv) {
        CallToolResult r = call(tool, args(kv));
        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " should fail, got " + text(r));
        assertFalse(text(r).contains("Exception") || text(r).contains(".java"), text(r));
        return text(r);
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private String remember(String content, String topic, String type, Object... more) {
        Object[] kv = new Object[6 + more.length];
        kv[0] = "content"; kv[1] = content; kv[2] = "topic"; kv[3] = topic; kv[4] = "type"; kv[5] = type;
        System.arraycopy(more, 0, kv, 6, more.length);
        return (String) ok("remember", kv).get("id");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> fragments(Map<String, Object> r) {
        return (List<Map<String, Object>>) r.get("fragments");
    }

    private long live() {
        return ((Number) stats().get("total")).longValue();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> stats(Object... kv) {
        Map<String, Object> r = ok("memory_stats", kv);
        assertEquals(true, r.get("success"));
        return (Map<String, Object>) r.get("stats");
    }

    @Test
    void listsMementosToolsWithItsArgumentNames() {
        List<String> names = profile.tools().stream().map(t -> t.definition().name()).toList();
        assertEquals(List.of("context", "remember", "batch_remember", "recall", "reflect", "forget", "link", "amend",
                "graph_explore", "fragment_history", "memory_stats", "memory_consolidate", "tool_feedback", "get_skill_guide",
                "reconstruct_history", "search_traces", "session_rotate"), names);
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) profile.tools().get(1).definition().inputSchema().get("properties");
        assertTrue(props.keySet().containsAll(List.of("content", "topic", "type", "keywords", "importance", "linkedTo",
                "scope", "isAnchor", "supersedes", "idempotencyKey", "dryRun", "workspace", "caseId", "goal", "outcome", "phase",
                "resolutionStatus", "assertionStatus", "affect", "contextSummary")), props.keySet().toString());
    }

    @Test
    void rememberAnswersMementosShapeWithTierAndKeywords() {
        Map<String, Object> r = ok("remember", "content", "Redis NOAUTH error: set REDIS_PASSWORD in the .env file",
                "topic", "redis", "type", "error");
        assertEquals(true, r.get("success"));
        assertTrue(((String) r.get("id")).startsWith("m_"));
        assertEquals("permanent", r.get("ttl_tier"), "an error's default importance 0.9 is permanent");
        assertEquals("permanent", r.get("scope"));
        assertEquals(false, r.get("merged"));
        assertEquals(List.of("redis", "noauth", "error", "set", "redis_password"), r.get("keywords"));
        Map<String, Object> again = ok("remember", "content", "Redis NOAUTH error: set REDIS_PASSWORD in the .env file",
                "topic", "redis", "type", "error");
        assertEquals(r.get("id"), again.get("id"));
        assertEquals(true, again.get("merged"));
        Map<String, Object> fact = ok("remember", "content", "The staging cluster has three nodes", "topic", "infra",
                "type", "fact", "importance", 0.3, "keywords", List.of("staging", "cluster"));
        assertEquals("cold", fact.get("ttl_tier"));
        assertEquals(List.of("staging", "cluster"), fact.get("keywords"));
        assertEquals("hot", ok("remember", "content", "Deploy: run migrations, then restart the workers", "topic", "deploy",
                "type", "procedure", "importance", 0.6).get("ttl_tier"));
    }

    @Test
    void importanceRoundTripsAsANumberAndKoreanTopicReadsBack() {
        String id = remember("배포 전에 마이그레이션을 실행한다", "배포", "decision", "importance", 0.73);
        Map<String, Object> r = ok("recall", "topic", "배포", "includeKeywords", true);
        Map<String, Object> f = fragments(r).get(0);
        assertEquals(id, f.get("id"));
        assertEquals(0.73, f.get("importance"));
        assertEquals("배포", f.get("topic"));
        assertEquals("decision", f.get("type"));
        assertTrue(((List<?>) f.get("keywords")).contains("마이그레이션을"), f.toString());
    }

    @Test
    void rememberRefusesBadInputAndWritesNothing() {
        assertTrue(error("remember", "content", "x", "topic", "t").contains("type is required"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "note").contains("fact, decision, error"));
        assertTrue(error("remember", "content", "x".repeat(301), "topic", "t", "type", "fact").contains("limit of 300"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "importance", 7).contains("importance must be 0.0..1.0"));
        assertTrue(error("remember", "content", "x", "type", "fact").contains("topic is required"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "scope", "global").contains("permanent or session"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "linkedTo", List.of("m_aaaaaaaaaa"))
                .contains("no fragment with linkedTo"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "importance", "high").contains("importance"));
        assertEquals(0, live());
        ok("remember", "content", "An episode may be long: " + "y".repeat(600), "topic", "t", "type", "episode");
        assertEquals(1, live());
    }

    /** A dry run reports the conflicts the write would, in Memento's shape, and writes nothing. */
    @Test
    @SuppressWarnings("unchecked")
    void aDryRunReportsTheConflictsTheWriteWould() {
        String twenty = remember("Redis max connections is 20", "redis", "fact");
        Map<String, Object> dry = ok("remember", "content", "Redis max connections is 50", "topic", "redis", "type", "fact", "dryRun", true);
        Map<String, Object> simulated = (Map<String, Object>) dry.get("simulated");
        assertEquals(List.of(Map.of("id", twenty, "content", "Redis max connections is 20")), simulated.get("conflicts"));
        assertEquals(List.of(), simulated.get("validation_warnings"));
        assertEquals(1, ((Map<String, Object>) simulated.get("quota")).get("current"));
        assertEquals("<would-generate>", ((Map<String, Object>) simulated.get("fragment")).get("id"));
        assertEquals(1, live(), "nothing written");
        Map<String, Object> real = ok("remember", "content", "Redis max connections is 50", "topic", "redis", "type", "fact");
        assertEquals(twenty, ((List<Map<String, Object>>) real.get("conflicts")).get(0).get("existing_id"), "the write finds the same one");
    }

    @Test
    void dryRunIdempotencyAnchorsSessionScopeAndSupersedes() {
        Map<String, Object> dry = ok("remember", "content", "Use pnpm, not npm", "topic", "tooling", "type", "preference", "dryRun", true);
        assertEquals(true, dry.get("dryRun"));
        assertEquals(0, live());
        String first = (String) ok("remember", "content", "Deployed v1.2", "topic", "deploy", "type", "fact", "idempotencyKey", "dep-1").get("id");
        Map<String, Object> again = ok("remember", "content", "Deployed v1.2 (retry)", "topic", "deploy", "type", "fact", "idempotencyKey", "dep-1");
        assertEquals(Map.of("id", first, "idempotent", true), again);
        assertEquals(1, live());
        Map<String, Object> anchored = ok("remember", "content", "The API is REST, never GraphQL", "topic", "api", "type", "fact",
                "importance", 0.4, "isAnchor", true);
        assertEquals("permanent", anchored.get("ttl_tier"));
        assertEquals("short", ok("remember", "content", "Working on the login form now", "topic", "ui", "type", "fact",
                "scope", "session").get("ttl_tier"));
        String newer = remember("Deployed v1.3", "deploy", "fact", "supersedes", List.of(first));
        List<Map<String, Object>> hits = fragments(ok("recall", "keywords", List.of("deployed"), "includeLinks", false));
        assertEquals(List.of(newer), hits.stream().map(f -> f.get("id")).toList(), "the superseded fragment leaves recall");
        assertEquals(List.of(first), ok("fragment_history", "id", newer).get("supersedes"));
        assertEquals(newer, ok("fragment_history", "id", first).get("superseded_by"));
    }

    @Test
    void recallCascadeFiltersBudgetAndLinks() {
        String error = remember("Redis NOAUTH on connect in staging", "redis", "error");
        String fix = remember("Fix: export REDIS_PASSWORD before starting the workers", "redis", "procedure");
        remember("Postgres vacuum runs nightly", "postgres", "fact");
        ok("link", "fromId", error, "toId", fix, "relationType", "resolved_by");
        Map<String, Object> r = ok("recall", "keywords", List.of("noauth"));
        assertEquals(error, fragments(r).get(0).get("id"));
        assertTrue(((List<?>) r.get("searchPath")).contains("L2:1"), r.get("searchPath").toString());
        assertTrue(((List<?>) r.get("searchPath")).stream().anyMatch(p -> ((String) p).startsWith("L2.5:")), r.get("searchPath").toString());
        assertEquals(fix, fragments(r).get(1).get("id"), "the fix comes with the error it resolves");
        assertTrue(((Number) r.get("totalTokens")).intValue() > 0);
        assertEquals(List.of("postgres"), fragments(ok("recall", "topic", "postgres")).stream().map(f -> f.get("topic")).toList());
        assertEquals(List.of(fix), fragments(ok("recall", "type", "procedure")).stream().map(f -> f.get("id")).toList());
        Map<String, Object> tiny = ok("recall", "keywords", List.of("redis"), "tokenBudget", 20);
        assertEquals(1, fragments(tiny).size(), "a budget smaller than two fragments keeps the best one");
        assertTrue(error("recall").contains("keywords or text is required"));
        assertTrue(error("recall", "keywords", List.of("x"), "pageSize", 90).contains("pageSize must be 1..50"));
        assertTrue(error("recall", "query", "x").contains("is not an argument of recall"));
        assertTrue(error("recall", "keywords", List.of("x"), "timeRange", Map.of("start", "7d")).contains("timeRange.start"));
    }

    @Test
    void decayLowersWhatUsersSeeButNotErrorsOrAnchors() {
        String fact = remember("The office wifi is called corp-5g", "office", "fact", "importance", 0.6);
        String error = remember("Build fails without JAVA_HOME", "build", "error", "importance", 0.6);
        clock.advance(Duration.ofDays(60));
        Map<String, Object> stats = stats();
        List<Map<String, Object>> ctx = fragments(ok("context", "types", List.of("fact", "error")));
        Map<String, Double> seen = new LinkedHashMap<>();
        for (Map<String, Object> f : ctx) seen.put((String) f.get("id"), ((Number) f.get("importance")).doubleValue());
        assertEquals(0.3, seen.get(fact), 1e-9, "a fact halves in 60 days");
        assertEquals(0.6, seen.get(error), 1e-9, "errors never decay");
        assertEquals(0.45, ((Number) stats.get("avg_importance")).doubleValue(), 1e-9);
    }

    @Test
    void contextGivesAnchorsCoreAndWorkingMemory() {
        remember("Prefer tabs", "style", "preference");
        remember("Never force-push main", "git", "fact", "isAnchor", true);
        remember("Now fixing the login bug", "ui", "fact", "scope", "session");
        remember("Trivia nobody needs", "misc", "fact");
        Map<String, Object> r = ok("context");
        List<Object> contents = fragments(r).stream().map(f -> f.get("content")).toList();
        assertEquals(List.of("Never force-push main", "Prefer tabs", "Now fixing the login bug"), contents);
        assertEquals(Map.of("anchors", 1, "core", 1, "working", 1), r.get("counts"));
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) ok("context", "structured", true).get("context");
        assertEquals(List.of("anchors", "core", "working"), List.copyOf(tree.keySet()));
        assertTrue(error("context", "types", List.of("note")).contains("not a fragment type"));
    }

    @Test
    void forgetByIdOrTopicWithForceForPermanent() {
        String error = remember("Old error", "redis", "error");
        String fact = remember("Redis runs on port 6380 here", "redis", "fact");
        assertTrue(error("forget").contains("id or topic is required"));
        assertTrue(error("forget", "id", error).contains("force: true"));
        assertEquals(2, live());
        assertEquals(List.of(fact), ok("forget", "id", fact, "dryRun", true).get("targets"));
        assertEquals(2, live());
        Map<String, Object> r = ok("forget", "topic", "redis", "force", true);
        assertEquals(2, r.get("deleted"));
        assertEquals(0, live());
        assertTrue(error("forget", "id", "m_aaaaaaaaaa").contains("no fragment with id"));
    }

    @Test
    void linkAmendHistoryAndGraphExplore() {
        String error = remember("Build fails: missing JAVA_HOME", "build", "error");
        String cause = remember("CI image lacks a JDK", "build", "fact");
        String fix = remember("Install temurin-17 in the CI image", "build", "procedure");
        assertEquals("caused_by", ok("link", "fromId", error, "toId", cause, "relationType", "caused_by").get("relationType"));
        ok("link", "fromId", error, "toId", fix, "relationType", "resolved_by");
        assertTrue(error("link", "fromId", error, "toId", fix, "relationType", "fixes").contains("caused_by, resolved_by"));
        assertTrue(error("link", "fromId", error, "toId", "m_aaaaaaaaaa").contains("no fragment with toId"));
        assertTrue(error("link", "fromId", error, "toId", error).contains("same fragment"));
        Map<String, Object> g = ok("graph_explore", "startId", error);
        assertEquals(2, ((List<?>) g.get("edges")).size());
        assertTrue(((String) g.get("tree")).contains("└─ caused_by → [fact] CI image lacks a JDK"), (String) g.get("tree"));
        assertTrue(error("graph_explore").contains("startId is required"));

        Map<String, Object> amended = ok("amend", "id", fix, "content", "Install temurin-21 in the CI image", "importance", 0.95, "topic", "ci");
        assertEquals(List.of("content", "topic", "importance"), amended.get("updated"));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = (Map<String, Object>) amended.get("fragment");
        assertEquals(0.95, f.get("importance"));
        assertEquals("ci", f.get("topic"));
        assertTrue(error("amend", "id", fix).contains("nothing to change"));
        assertTrue(error("amend", "id", fix, "type", "fact").contains("supersedes"));
        Map<String, Object> h = ok("fragment_history", "id", fix);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> versions = (List<Map<String, Object>>) h.get("versions");
        assertEquals("Install temurin-17 in the CI image", versions.get(0).get("content"));
    }

    /** A reflect is a batch: as many items as batch_remember takes, refused whole past that, before any write. */
    @Test
    void reflectTakesAtMostABatchOfItems() {
        List<String> many = java.util.stream.IntStream.range(0, 150).mapToObj(i -> "Summary point number " + i).toList();
        List<String> more = java.util.stream.IntStream.range(0, 60).mapToObj(i -> "Decision number " + i).toList();
        String refused = error("reflect", "summary", many, "decisions", more);
        assertTrue(refused.contains("210 items") && refused.contains("at most 200"), refused);
        assertEquals(0, live());
    }

    /** The ids Memento takes and Engram does not use are still checked: a wrong type or a huge value is said, nothing written. */
    @Test
    void unusedIdsAreStillChecked() {
        assertTrue(error("remember", "content", "A fact", "topic", "t", "type", "fact", "agentId", 7).contains("agentId must be a string"));
        assertTrue(error("remember", "content", "A fact", "topic", "t", "type", "fact", "sessionId", "s".repeat(300))
                .contains("sessionId is 300 characters"));
        assertTrue(error("recall", "keywords", List.of("fact"), "agentId", List.of("a")).contains("agentId"));
        assertEquals(0, live());
        ok("remember", "content", "A fact", "topic", "t", "type", "fact", "agentId", "default", "source", "session");
    }

    /** However long a fragment is, the limit it hears is Memento's (300, episodes 1000), not the store's 8,000. */
    @Test
    void aHugeFragmentHearsMementosLimit() {
        String refused = error("remember", "content", "x".repeat(200_000), "topic", "t", "type", "fact");
        assertTrue(refused.contains("200000 characters, over Memento's limit of 300"), refused);
        assertTrue(error("remember", "content", "y".repeat(9_000), "topic", "t", "type", "episode").contains("limit of 1000"));
        assertEquals(0, live());
    }

    /** amend holds a topic and keywords to remember's limits; a refused amend leaves the fragment as it was. */
    @Test
    void amendKeepsRemembersLimits() {
        String id = (String) ok("remember", "content", "The nightly job runs at 02:00 UTC", "topic", "jobs", "type", "fact").get("id");
        assertTrue(error("amend", "id", id, "topic", "x".repeat(101)).contains("at most 100"));
        assertTrue(error("amend", "id", id, "keywords", List.of("y".repeat(37))).contains("longer than 36"));
        assertTrue(error("amend", "id", id, "keywords", java.util.stream.IntStream.range(0, 16).mapToObj(i -> "k" + i).toList())
                .contains("at most 15"));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = (Map<String, Object>) ok("amend", "id", id, "keywords", List.of("nightly", " cron ", "nightly")).get("fragment");
        assertEquals("jobs", f.get("topic"));
        assertTrue(ok("recall", "keywords", List.of("cron")).toString().contains(id), "the stripped keyword was kept");
    }

    @Test
    void reflectAndBatchWriteAllOrNothing() {
        assertTrue(error("reflect").contains("summary"));
        assertTrue(error("reflect", "decisions", List.of("ok"), "new_procedures", List.of("z".repeat(400))).contains("new_procedures[0].content"));
        assertEquals(0, live());
        Map<String, Object> r = ok("reflect", "summary", "Fixed the Redis auth, and the workers start again",
                "decisions", List.of("Keep Redis 7"), "errors_resolved", List.of("Cause: no password → Resolution: set REDIS_PASSWORD"),
                "open_questions", List.of("Why is the queue slow?"), "narrative_summary", "We debugged Redis for an hour.");
        assertEquals(5, r.get("count"));
        assertEquals(List.of("fact", "decision", "error", "fact", "episode"),
                ((List<?>) r.get("fragments")).stream().map(x -> ((Map<?, ?>) x).get("type")).toList());
        assertEquals(5, live());

        assertTrue(error("batch_remember", "fragments", List.of(Map.of("content", "a ok", "topic", "t", "type", "fact"),
                Map.of("content", "b", "topic", "t", "type", "note"))).contains("fragments[1].type"));
        assertTrue(error("batch_remember", "fragments", List.of(Map.of("content", "a", "topic", "t", "type", "fact", "tags", List.of())))
                .contains("fragments[0].tags"));
        assertEquals(5, live());
        Map<String, Object> b = ok("batch_remember", "fragments", List.of(Map.of("content", "One batch fact", "topic", "t", "type", "fact"),
                Map.of("content", "Another batch fact", "topic", "t", "type", "decision", "importance", 0.2)));
        assertEquals(2, b.get("inserted"));
        assertEquals(7, live());
    }

    @Test
    @SuppressWarnings("unchecked")
    void batchRememberFillsEachItemsConflictsAndAnswersRepeatedIdempotencyKeysOnce() {
        String pool = remember("The connection pool allows max 20 connections", "db", "fact");
        Map<String, Object> b = ok("batch_remember", "fragments", List.of(
                Map.of("content", "The connection pool allows max 50 connections", "topic", "db", "type", "fact"),
                Map.of("content", "Deploys run on Tuesdays", "topic", "ops", "type", "fact", "idempotencyKey", "deploy-day"),
                Map.of("content", "Deploys run on Tuesdays, said twice", "topic", "ops", "type", "fact", "idempotencyKey", "deploy-day")));
        List<Map<String, Object>> results = (List<Map<String, Object>>) b.get("results");
        assertEquals(2, b.get("inserted"));
        List<Map<String, Object>> conflicts = (List<Map<String, Object>>) results.get(0).get("conflicts");
        assertEquals(pool, conflicts.get(0).get("existing_id"));
        assertEquals("values", conflicts.get(0).get("basis"));
        assertEquals(List.of(), results.get(1).get("conflicts"));
        assertEquals(Map.of("id", results.get(1).get("id"), "idempotent", true), results.get(2));
        Map<String, Object> again = ok("batch_remember", "fragments", List.of(
                Map.of("content", "Anything", "topic", "ops", "type", "fact", "idempotencyKey", "deploy-day")));
        assertEquals(List.of(Map.of("id", results.get(1).get("id"), "idempotent", true)), again.get("results"));
        assertEquals(3, live());
    }

    @Test
    @SuppressWarnings("unchecked")
    void memoryConsolidateRunsMementosCycleAndADryRunWritesNothing() {
        String procedure = remember("Deploy with make release", "deploy", "procedure", "importance", 0.7);
        String kept = remember("Never force-push main", "git", "preference");
        clock.advance(java.time.Duration.ofDays(30));
        Map<String, Object> dry = ok("memory_consolidate", "dryRun", true);
        assertEquals(true, dry.get("dryRun"));
        assertEquals(1, ((Map<String, Object>) dry.get("results")).get("decayed"), dry.toString());
        assertEquals(0.7, ((Number) store.get(procedure).orElseThrow().relevance()).doubleValue() / 2, 1e-9, "a dry run writes nothing");
        Map<String, Object> r = ok("memory_consolidate", "workspace", "default");
        assertEquals(false, r.get("dryRun"));
        assertEquals("default", r.get("workspace"));
        List<Map<String, Object>> steps = (List<Map<String, Object>>) r.get("steps");
        assertEquals(List.of("anchor", "tiers", "merge", "decay", "compress", "contradictions", "gc"),
                steps.stream().map(s -> s.get("step")).toList());
        Map<String, Object> decay = steps.get(3);
        assertEquals(1, decay.get("changed"));
        assertEquals(List.of(procedure), ((List<Map<String, Object>>) decay.get("findings")).get(0).get("ids"));
        assertEquals(0.35, store.get(procedure).orElseThrow().relevance() / 2, 0.001, "half-life 30 days, written back");
        assertEquals(0.95, store.get(kept).orElseThrow().relevance() / 2, 1e-9, "a preference never fades");
        Map<String, Object> again = ok("memory_consolidate");
        assertEquals(0, again.get("changed"), "the fading was written once: nothing more at the same instant");
        assertTrue(error("memory_consolidate", "workspace", 5).contains("workspace"));
    }

    @Test
    void feedbackAdaptsImportanceAndTheGuideAndTracesAnswer() {
        String id = remember("Recall pages are slow", "perf", "fact", "importance", 0.5);
        Map<String, Object> r = ok("tool_feedback", "tool_name", "recall", "relevant", false, "sufficient", false, "fragment_ids", List.of(id));
        @SuppressWarnings("unchecked")
        Map<String, Object> adj = ((List<Map<String, Object>>) r.get("adjusted")).get(0);
        assertEquals(0.475, adj.get("importance"));
        Map<String, Object> repeat = ok("tool_feedback", "tool_name", "recall", "relevant", false, "sufficient", false, "fragment_ids", List.of(id));
        assertEquals(List.of(), repeat.get("adjusted"), "a session adapts a fragment once per 24 hours");
        assertEquals(id, ((Map<?, ?>) ((List<?>) repeat.get("skipped")).get(0)).get("id"));
        assertEquals(0.475, store.get(id).orElseThrow().relevance() / 2, 1e-9);
        assertTrue(error("tool_feedback", "tool_name", "recall", "relevant", true).contains("sufficient is required"));
        assertTrue(((String) ok("reconstruct_history", "caseId", "c1").get("summary")).startsWith("No fragments found for case 'c1'"));
        assertTrue(((Map<?, ?>) ok("get_skill_guide", "section", "importance").get("guide")).containsKey("importance"));
        assertTrue(error("get_skill_guide", "section", "nope").contains("overview"));
        Map<String, Object> t = ok("search_traces", "keyword", "PAGES");
        assertEquals(1, t.get("count"));
        assertTrue(error("search_traces").contains("keyword is required"));
    }

    @Test
    void sessionRotateGivesTheCallsHttpSessionANewIdAndOverStdioSaysThereIsNone() {
        String stdio = error("session_rotate");
        assertTrue(stdio.contains("session_rotate: no session id to rotate") && stdio.contains("came over stdio"), stdio);
        assertTrue(error("session_rotate", "reason", "a\nb").contains("reason has a line break"), "the reason is checked first");

        SessionRotation ledger = new SessionRotation(() -> "7c1d8d52-0000-4000-8000-000000000001", 10);
        List<String> rotations = new java.util.ArrayList<>();
        TransportSession http = new TransportSession() {
            @Override
            public String id() {
                return "sdk-session-1";
            }

            @Override
            public SessionRotation.Rotated rotate(String reason) {
                SessionRotation.Rotated r = ledger.rotate("sdk-session-1", "sdk-session-1", reason);
                rotations.add(r.newId());
                return r;
            }
        };
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals("session_rotate")).findFirst().orElseThrow();
        CallToolResult tooLong = ToolAdapter.call(h, args("reason", "r".repeat(257)), new Caller("t/sdk-session-1", null, "t", http));
        assertTrue(Boolean.TRUE.equals(tooLong.isError()) && text(tooLong).contains("reason is 257 characters; send at most 256"), text(tooLong));
        assertEquals(List.of(), rotations, "a refused reason rotates nothing");

        CallToolResult r = ToolAdapter.call(h, args(), new Caller("t/sdk-session-1", null, "t", http));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) r.structuredContent();
        assertEquals(List.of("success", "newSessionId", "expiresAt", "rotatedAt", "reason"), List.copyOf(out.keySet()));
        assertEquals("7c1d8d52-0000-4000-8000-000000000001", out.get("newSessionId"));
        assertEquals("2026-12-01T10:00:00Z", out.get("rotatedAt"));
        assertEquals(SessionRotation.DEFAULT_REASON, out.get("reason"));
        assertTrue(ledger.lookup("sdk-session-1") instanceof SessionRotation.Retired);
        assertEquals(new SessionRotation.Current("sdk-session-1"), ledger.lookup("7c1d8d52-0000-4000-8000-000000000001"));
    }

    @Test
    void workspaceIsTheZone() {
        remember("Alpha only", "a", "fact", "workspace", "alpha");
        assertEquals(0, live());
        assertEquals(1L, ((Number) stats("workspace", "alpha").get("total")).longValue());
    }

    @Test
    @SuppressWarnings("unchecked")
    void rememberListsTheFragmentsItMayContradict() {
        String first = remember("The connection pool allows max 20 connections", "db", "fact");
        Map<String, Object> r = ok("remember", "content", "The connection pool allows max 50 connections", "topic", "db", "type", "fact");
        assertEquals(true, r.get("success"), "a conflict never blocks the write");
        List<Map<String, Object>> conflicts = (List<Map<String, Object>>) r.get("conflicts");
        assertEquals(1, conflicts.size(), r.toString());
        assertEquals(first, conflicts.get(0).get("existing_id"));
        assertEquals("The connection pool allows max 20 connections", conflicts.get(0).get("existing_content"));
        assertEquals("values", conflicts.get(0).get("basis"));
        assertEquals("max: 20 vs 50", conflicts.get(0).get("detail"));
        assertTrue(((String) conflicts.get(0).get("recommendation")).contains(first));
        Map<String, Object> calm = ok("remember", "content", "Backups run nightly at two", "topic", "ops", "type", "fact");
        assertEquals(List.of(), calm.get("conflicts"));
    }

    // --- recall: includeSuperseded, excludeSeen -------------------------------------------------------------------

    @Test
    void includeSupersededBringsBackWhatANewerFragmentReplaced() {
        String old = remember("The deploy window is Friday evening", "deploy", "decision");
        String now = remember("The deploy window is Tuesday morning", "deploy", "decision", "supersedes", List.of(old));
        assertEquals(List.of(now), ids(ok("recall", "keywords", List.of("deploy", "window"))), "left out by default");
        Map<String, Object> both = ok("recall", "keywords", List.of("deploy", "window"), "includeSuperseded", true);
        assertEquals(java.util.Set.of(old, now), java.util.Set.copyOf(ids(both)));
        Map<String, Object> replaced = fragments(both).stream().filter(f -> f.get("id").equals(old)).findFirst().orElseThrow();
        assertEquals(now, replaced.get("superseded_by"));
        assertEquals(List.of(now), ids(ok("recall", "topic", "deploy")), "listing leaves it out too");
        assertEquals(java.util.Set.of(old, now), java.util.Set.copyOf(ids(ok("recall", "topic", "deploy", "includeSuperseded", true))));
        assertTrue(error("recall", "keywords", List.of("deploy"), "includeSuperseded", "sometimes").contains("includeSuperseded"));
    }

    /** Working memory is the writing session's own, as Memento keeps it per session; reflect ends it. */
    @Test
    void sessionScopedFragmentsAreSeenOnlyByTheirSessionAndEndWithItsReflect() {
        String scratch = (String) okIn("claude/s1", "remember", "content", "Scratch: editing Parser.java right now", "topic", "parser",
                "type", "fact", "scope", "session").get("id");
        String shared = remember("Parser.java holds the tokenizer", "parser", "fact");
        assertEquals(java.util.Set.of(scratch, shared), java.util.Set.copyOf(ids(okIn("claude/s1", "recall", "keywords", List.of("parser")))));
        assertEquals(List.of(shared), ids(okIn("claude/s2", "recall", "keywords", List.of("parser"))), "another session");
        assertEquals(List.of(shared), ids(okIn("claude/s2", "recall", "topic", "parser")), "its listing too");
        assertEquals(0, ((Map<?, ?>) okIn("claude/s2", "context").get("counts")).get("working"));
        assertEquals(1, ((Map<?, ?>) okIn("claude/s1", "context").get("counts")).get("working"));
        okIn("claude/s1", "reflect", "summary", List.of("Split the tokenizer out of Parser.java"));
        assertEquals(0, ((Map<?, ?>) okIn("claude/s1", "context").get("counts")).get("working"), "reflect ends the working memory");
        assertFalse(ids(okIn("claude/s1", "recall", "keywords", List.of("parser"))).contains(scratch));
    }

    /** Memento's reflect: resolved errors and open questions are not permanent and carry their status; an episode always. */
    @Test
    void reflectSettlesResolvedErrorsAndOpenQuestionsAndTellsTheEpisode() {
        Map<String, Object> r = ok("reflect", "decisions", List.of("Use NTP on every worker"),
                "errors_resolved", List.of("Token clock skew, fixed by NTP sync"), "open_questions", List.of("Do we need a retry?"));
        assertEquals(List.of("decision", "error", "fact", "episode"), fragments(r).stream().map(f -> f.get("type")).toList());
        Map<String, Object> error = fragments(ok("recall", "resolutionStatus", "resolved")).get(0);
        assertEquals("[resolved] Token clock skew, fixed by NTP sync", error.get("content"));
        assertEquals(0.5, ((Number) error.get("importance")).doubleValue(), 1e-9);
        Map<String, Object> open = fragments(ok("recall", "resolutionStatus", "open")).get(0);
        assertEquals(0.4, ((Number) open.get("importance")).doubleValue(), 1e-9);
        String episode = (String) fragments(ok("recall", "type", "episode")).get(0).get("content");
        assertTrue(episode.startsWith("[decision] Use NTP on every worker. [error] [resolved] Token clock skew"), episode);
    }

    /** The next session's context hands over: decisions by default, and the previous session's reflection. */
    @Test
    void contextGivesDecisionsAndThePreviousSessionsReflection() {
        okIn("claude/s1", "reflect", "summary", List.of("Moved the queue to Redis streams"), "decisions", List.of("Keep Kafka for audit events"));
        List<String> contents = fragments(okIn("claude/s2", "context")).stream().map(f -> (String) f.get("content")).toList();
        assertTrue(contents.contains("Keep Kafka for audit events"), contents.toString());
        assertTrue(contents.contains("Moved the queue to Redis streams"), contents.toString());
    }

    /** Memento's supersede halves the replaced fragment's importance; as of a time before it, the old one answers. */
    @Test
    void supersedingHalvesTheOldFragmentAndAsOfBeforeFindsIt() {
        String old = remember("The deploy pipeline uses Jenkins for builds", "ci", "decision", "importance", 0.8);
        clock.advance(java.time.Duration.ofDays(2));
        remember("The deploy pipeline uses GitHub Actions for builds", "ci", "decision", "supersedes", List.of(old));
        Map<String, Object> replaced = fragments(ok("recall", "keywords", List.of("deploy"), "includeSuperseded", true)).stream()
                .filter(f -> f.get("id").equals(old)).findFirst().orElseThrow();
        // half of 0.8, as faded over the two days since it was written (a decision fades slowly)
        assertEquals(0.4, ((Number) replaced.get("importance")).doubleValue(), 0.01);
        assertEquals(List.of(old), ids(ok("recall", "keywords", List.of("deploy"), "asOf", "2026-12-02T00:00:00Z")));
    }

    /** A workspace is any text compared exactly, as in Memento: case and Korean names keep their fragments apart. */
    @Test
    void workspacesAreAnyTextComparedExactly() {
        remember("Upper team uses Gradle", "build", "fact", "workspace", "teamA");
        remember("Other team uses Maven", "build", "fact", "workspace", "TeamA");
        remember("한국팀은 Bazel 을 쓴다", "build", "fact", "workspace", "한국팀");
        assertEquals(List.of("Upper team uses Gradle"), fragments(ok("recall", "topic", "build", "workspace", "teamA")).stream()
                .map(f -> f.get("content")).toList());
        assertEquals(List.of("Other team uses Maven"), fragments(ok("recall", "topic", "build", "workspace", "TeamA")).stream()
                .map(f -> f.get("content")).toList());
        assertEquals(List.of("한국팀은 Bazel 을 쓴다"), fragments(ok("recall", "topic", "build", "workspace", "한국팀")).stream()
                .map(f -> f.get("content")).toList());
        assertTrue(fragments(ok("recall", "topic", "build")).isEmpty(), "none of them is in the server's own zone");
        // a fragment without a workspace is global: every workspace's recall and context take it in
        String global = remember("Always run the linter before commit", "build", "preference", "keywords", List.of("linter"));
        String team = remember("Team A runs the linter with --fix", "build", "procedure", "keywords", List.of("linter"), "workspace", "teamA");
        assertEquals(java.util.Set.of(global, team), java.util.Set.copyOf(ids(ok("recall", "keywords", List.of("linter"), "workspace", "teamA"))));
        assertEquals(List.of(global), ids(ok("recall", "keywords", List.of("linter"))), "the server's zone alone holds no workspace's");
        assertTrue(ids(okIn("claude/s9", "context", "workspace", "teamA")).containsAll(List.of(global, team)));
        assertEquals("alpha", Workspaces.zoneOf(" alpha "));
        assertTrue(Workspaces.zoneOf("teamA").matches("teama-[0-9a-f]{6}"), Workspaces.zoneOf("teamA"));
        assertTrue(Workspaces.zoneOf("한국팀").matches("ws-[0-9a-f]{6}"), Workspaces.zoneOf("한국팀"));
    }

    @Test
    void excludeSeenLeavesOutWhatThisSessionsContextGave() {
        String pref = remember("Answer in English with short sentences", "style", "preference", "keywords", List.of("answer", "style"));
        String fact = remember("Style guide lives in docs/style.md", "style", "fact", "keywords", List.of("style", "guide"));
        assertEquals(List.of(pref), ids(okIn("claude/s1", "context")), "context gives the preference");
        // same session: what context gave is not repeated (Memento's default excludeSeen: true)
        assertEquals(List.of(fact), ids(okIn("claude/s1", "recall", "keywords", List.of("style"))));
        assertEquals(List.of(fact), ids(okIn("claude/s1", "recall", "topic", "style")), "listing too");
        assertEquals(java.util.Set.of(pref, fact),
                java.util.Set.copyOf(ids(okIn("claude/s1", "recall", "keywords", List.of("style"), "excludeSeen", false))));
        // another session, and a call without a session, see both
        assertEquals(java.util.Set.of(pref, fact), java.util.Set.copyOf(ids(okIn("claude/s2", "recall", "keywords", List.of("style")))));
        assertEquals(java.util.Set.of(pref, fact), java.util.Set.copyOf(ids(ok("recall", "keywords", List.of("style")))));
        // a recall marks nothing seen: the same recall again answers the same
        assertEquals(List.of(fact), ids(okIn("claude/s1", "recall", "keywords", List.of("style"))));
        // the next context call replaces what the session has seen
        assertEquals(List.of(fact), ids(okIn("claude/s1", "context", "types", List.of("fact"))));
        assertEquals(List.of(pref), ids(okIn("claude/s1", "recall", "keywords", List.of("style"))));
        assertTrue(error("recall", "keywords", List.of("style"), "excludeSeen", 3).contains("excludeSeen"));
    }

    // --- remember: v3 case fields ---------------------------------------------------------------------------------

    @Test
    void caseFieldsAreStoredAndComeBackWithTheFragment() {
        String id = remember("CLI --remote now sends the bearer header", "cli", "episode", "caseId", "feat-cli-remote",
                "goal", "Make the CLI talk to a remote server", "outcome", "Works; 12 integration tests pass",
                "phase", "Verification", "resolutionStatus", "resolved", "assertionStatus", "verified",
                "affect", "satisfaction", "contextSummary", "Written while releasing v2.12\nafter the auth rework");
        Map<String, Object> f = fragments(ok("recall", "keywords", List.of("remote", "bearer"))).get(0);
        assertEquals(id, f.get("id"));
        assertEquals("feat-cli-remote", f.get("case_id"));
        assertEquals("Make the CLI talk to a remote server", f.get("goal"));
        assertEquals("Works; 12 integration tests pass", f.get("outcome"));
        assertEquals("verification", f.get("phase"));
        assertEquals("resolved", f.get("resolution_status"));
        assertEquals("verified", f.get("assertion_status"));
        assertEquals("satisfaction", f.get("affect"));
        assertEquals("Written while releasing v2.12\nafter the auth rework", f.get("context_summary"));
        assertEquals("feat-cli-remote", fragments(ok("recall", "caseId", "feat-cli-remote")).get(0).get("case_id"));
        assertEquals(List.of(id), ids(ok("recall", "phase", "verification", "resolutionStatus", "resolved")));
        assertEquals(List.of(id), ids(ok("recall", "keywords", List.of("remote"), "affect", List.of("confidence", "satisfaction"))));
        assertEquals(List.of(), ids(ok("recall", "keywords", List.of("remote"), "affect", "frustration")));

        // the defaults (observed, neutral) are not stored and not shown; a Korean phase reads back as written
        String plain = remember("The staging database is PostgreSQL 16", "db", "fact", "assertionStatus", "observed",
                "affect", "neutral", "phase", "디버깅");
        Map<String, Object> p = fragments(ok("recall", "keywords", List.of("staging", "postgresql"))).get(0);
        assertEquals(plain, p.get("id"));
        assertFalse(p.containsKey("assertion_status") || p.containsKey("affect") || p.containsKey("goal") || p.containsKey("case_id"), p.toString());
        assertEquals("디버깅", p.get("phase"));
        assertEquals(List.of(plain), ids(ok("recall", "keywords", List.of("staging"), "affect", "neutral")));
        assertEquals(List.of(plain), ids(ok("recall", "phase", "디버깅")));

        Map<String, Object> dry = ok("remember", "content", "A dry one", "topic", "t", "type", "fact", "goal", "g", "affect", "doubt", "dryRun", true);
        @SuppressWarnings("unchecked")
        Map<String, Object> sim = (Map<String, Object>) ((Map<String, Object>) dry.get("simulated")).get("fragment");
        assertEquals("g", sim.get("goal"));
        assertEquals("doubt", sim.get("affect"));
        assertEquals(2, store.count(), "a dry run writes nothing");
    }

    @Test
    void badCaseFieldsAreRefusedSayingWhatToSendAndNothingIsWritten() {
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "assertionStatus", "maybe")
                .contains("assertionStatus 'maybe' is not an assertion status; send one of observed, inferred, verified, rejected"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "affect", "angry")
                .contains("affect 'angry' is not an affect; send one of neutral, frustration, confidence, surprise, doubt, satisfaction"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "phase", "p".repeat(51))
                .contains("phase is 51 characters; send a short stage name"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "phase", "one\ntwo").contains("phase has a line break"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "goal", "g".repeat(1001))
                .contains("goal is 1001 characters; send at most 1000"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "outcome", 42).contains("outcome"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "contextSummary", "c".repeat(1001))
                .contains("contextSummary is 1001 characters"));
        assertTrue(error("recall", "keywords", List.of("x"), "affect", List.of("calm")).contains("affect 'calm' is not an affect"));
        assertTrue(error("recall", "keywords", List.of("x"), "resolutionStatus", "closed").contains("resolutionStatus 'closed' is not a status"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "caseId", "배포-장애", "phase", "점검",
                "affect", "angry").contains("affect 'angry'"));
        assertTrue(error("remember", "content", "x", "topic", "t", "type", "fact", "caseId", "배포-장애", "phase", "점검",
                "linkedTo", List.of("m_zzzzzzzzzz")).contains("no fragment with linkedTo"));
        assertEquals(0, store.count());
        assertTrue(store.mark(Fragments.MARK + Fragments.tagFor(Fragments.CASE, "배포-장애")).isEmpty()
                && store.mark(Fragments.MARK + Fragments.tagFor(Fragments.PHASE, "점검")).isEmpty(), "not even a word's spelling is kept");
    }

    @Test
    void anErrorOpensACaseThatTheSessionsNextFragmentsOnTheTopicJoin() {
        Map<String, Object> err = okIn("claude/s1", "remember", "content", "Redis NOAUTH on the staging cache", "topic", "redis", "type", "error");
        String caseId = (String) err.get("case_id");
        assertTrue(caseId != null && caseId.matches("[0-9a-f-]{36}"), err.toString());
        Map<String, Object> fix = okIn("claude/s1", "remember", "content", "Set REDIS_PASSWORD and restart", "topic", "redis", "type", "procedure");
        assertEquals(caseId, fix.get("case_id"), "joins the session's case on the topic");
        assertFalse(okIn("claude/s1", "remember", "content", "Redis runs on port 6380 here", "topic", "redis", "type", "fact")
                .containsKey("case_id"), "facts do not join automatically");
        assertFalse(okIn("claude/s2", "remember", "content", "Use Redis 7 for streams", "topic", "redis", "type", "decision")
                .containsKey("case_id"), "another session has its own cases");
        assertFalse(okIn("claude/s1", "remember", "content", "Chose Caddy over nginx", "topic", "proxy", "type", "decision")
                .containsKey("case_id"), "another topic, no error: no case");
        assertEquals("inc-7", okIn("claude/s1", "remember", "content", "The proxy drops websocket upgrades", "topic", "proxy",
                "type", "error", "caseId", "inc-7").get("case_id"), "a caseId sent wins");
        assertEquals("inc-7", okIn("claude/s1", "remember", "content", "Enable websocket upgrades in the proxy config",
                "topic", "proxy", "type", "procedure").get("case_id"));
        assertFalse(ok("remember", "content", "Disk full on the build agent", "topic", "ci", "type", "error").containsKey("case_id"),
                "no MCP session, no automatic case");
        Map<String, Object> story = ok("reconstruct_history", "caseId", caseId);
        assertEquals(2, ((List<?>) story.get("ordered_timeline")).size(), story.toString());
        // a case id or topic too long for a tag of its own gets a hashed one and reads back as written
        String topic = "a-rather-long-subsystem-name-of-36ch";
        String longId = remember("Long names work", topic, "fact", "caseId", "case-id-that-is-longer-than-forty-characters");
        Map<String, Object> f = fragments(ok("recall", "topic", topic)).get(0);
        assertEquals(longId, f.get("id"));
        assertEquals(topic, f.get("topic"));
        assertEquals("case-id-that-is-longer-than-forty-characters", f.get("case_id"));
    }

    // --- tool_feedback stored ---------------------------------------------------------------------------------------

    @Test
    @SuppressWarnings("unchecked")
    void feedbackIsStoredAndShownByMemoryStatsAcrossAReopen() {
        String id = remember("Recall pages are slow on big stores", "perf", "fact", "importance", 0.5);
        Map<String, Object> first = okIn("claude/s1", "tool_feedback", "tool_name", "recall", "relevant", true, "sufficient", false,
                "suggestion", "show error fragments first", "context", "debugging redis", "fragment_ids", List.of(id));
        assertEquals(1L, ((Number) first.get("id")).longValue());
        assertEquals("recall", first.get("tool_name"));
        assertEquals(true, first.get("relevant"));
        assertEquals(false, first.get("sufficient"));
        assertEquals(2L, ((Number) okIn("claude/s2", "tool_feedback", "tool_name", "context", "relevant", true, "sufficient", true,
                "trigger_type", "sampled").get("id")).longValue());
        // refused: nothing logged, nothing adapted
        assertTrue(error("tool_feedback", "tool_name", "recall", "relevant", true, "sufficient", true, "trigger_type", "often")
                .contains("trigger_type 'often' is not a trigger; send voluntary or sampled"));
        assertTrue(error("tool_feedback", "tool_name", "recall", "relevant", true, "sufficient", true,
                "fragment_ids", List.of(id, "m_zzzzzzzzzz")).contains("no fragment with fragment_ids"));
        assertTrue(error("tool_feedback", "tool_name", "r".repeat(65), "relevant", true, "sufficient", true).contains("tool_name is 65 characters"));
        assertTrue(error("tool_feedback", "tool_name", "recall", "relevant", true, "sufficient", true, "context", "c".repeat(51))
                .contains("context is 51 characters; send at most 50"));

        // a new engine and profile on the same store: what a restarted server reads
        Engine reopened = new Engine(store, new dev.engram.testing.InMemorySearchIndex(store), clock);
        ToolProfile again = MementoProfile.create(ProfileContext.of(reopened, "default"), clock);
        ToolHandler statsTool = again.tools().stream().filter(t -> t.definition().name().equals("memory_stats")).findFirst().orElseThrow();
        Map<String, Object> stats = (Map<String, Object>) ((Map<String, Object>) ToolAdapter.call(statsTool, Map.of())
                .structuredContent()).get("stats");
        Map<String, Object> fb = (Map<String, Object>) stats.get("feedback");
        assertEquals(2L, ((Number) fb.get("total")).longValue());
        assertEquals(1.0, fb.get("relevant_rate"));
        assertEquals(0.5, fb.get("sufficient_rate"));
        Map<String, Object> recall = (Map<String, Object>) ((Map<String, Object>) fb.get("by_tool")).get("recall");
        assertEquals(Map.of("total", 1, "relevant", 1, "sufficient", 0, "sampled", 0, "voluntary", 1), recall);
        List<Map<String, Object>> sug = (List<Map<String, Object>>) fb.get("recent_suggestions");
        assertEquals("show error fragments first", sug.get(0).get("suggestion"));
        Map<String, Object> eval = (Map<String, Object>) stats.get("evaluation");
        assertEquals(2, eval.get("sample_sessions"));
        assertEquals(1.0, eval.get("rolling_precision_at_5"));
        assertEquals(0.5, eval.get("sufficient_rate"));
        assertEquals(0.488, store.get(id).orElseThrow().relevance() / 2, 1e-9, "adapted once, by the logged rating");
    }

    // --- recall's v3 arguments: cursor, fields, keywords, links, depth, context, caseMode --------------------

    @Test
    void recallPagesWithAStatelessCursorAndNeverRepeats() {
        List<String> all = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // distinct importances: the ranking has no ties, so a larger page is exactly two smaller ones
            all.add(remember("Rollout step " + i + " of the canary release: check dashboards", "rollout", "fact",
                    "importance", 0.9 - 0.05 * i));
        }
        Object[] search = {"keywords", List.of("canary"), "includeLinks", false, "tokenBudget", 5000};
        Map<String, Object> big = ok("recall", with(search, "pageSize", 6));
        assertEquals(6, ids(big).size());
        assertEquals(true, big.get("hasMore"));
        Map<String, Object> p1 = ok("recall", with(search, "pageSize", 3));
        assertEquals(3, p1.get("count"));
        assertEquals(true, p1.get("hasMore"));
        String c1 = (String) p1.get("nextCursor");
        assertTrue(c1 != null && c1.matches("[A-Za-z0-9_-]+"), "opaque base64url: " + c1);
        Map<String, Object> p2 = ok("recall", with(search, "pageSize", 3, "cursor", c1));
        assertTrue(java.util.Collections.disjoint(ids(p1), ids(p2)), ids(p1) + " / " + ids(p2));
        List<String> both = new java.util.ArrayList<>(ids(p1));
        both.addAll(ids(p2));
        assertEquals(ids(big), both, "page 1 + page 2 = the first six");
        Map<String, Object> p3 = ok("recall", with(search, "pageSize", 3, "cursor", p2.get("nextCursor")));
        assertEquals(1, ids(p3).size());
        assertEquals(false, p3.get("hasMore"));
        assertEquals(null, p3.get("nextCursor"));
        both.addAll(ids(p3));
        assertEquals(java.util.Set.copyOf(all), java.util.Set.copyOf(both), "every fragment once");
        // the page size may change between pages; the search may not
        assertEquals(ids(p2).subList(0, 2), ids(ok("recall", with(search, "pageSize", 2, "cursor", c1))));
        String access = accessCounts(all);
        char flip = c1.charAt(8) == 'A' ? 'B' : 'A';
        String tampered = c1.substring(0, 8) + flip + c1.substring(9);
        assertTrue(error("recall", with(search, "cursor", tampered)).contains("cursor was altered or cut short"), "tampered");
        assertTrue(error("recall", with(search, "cursor", c1.substring(0, c1.length() - 3))).contains("cursor"), "cut");
        assertTrue(error("recall", with(search, "cursor", "not a cursor!")).contains("cursor is not a recall cursor"));
        String foreign = error("recall", "keywords", List.of("dashboards"), "includeLinks", false, "cursor", c1);
        assertTrue(foreign.contains("cursor belongs to a different search") && foreign.contains("leave cursor out"), foreign);
        assertTrue(error("recall", with(search, "topic", "other", "cursor", c1)).contains("different search"));
        assertEquals(access, accessCounts(all), "a refused recall records no read");
    }

    /** The read counts of these fragments, and when they were last read, from the store. */
    private String accessCounts(List<String> ids) {
        return ids.stream().map(id -> store.get(id).orElseThrow()).map(m -> m.accessCount() + "@" + m.lastAccessedAt()).toList().toString();
    }

    private static Object[] with(Object[] base, Object... more) {
        Object[] out = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }

    @Test
    void recallProjectsFieldsAndAddsKeywordsOnlyWhenAsked() {
        remember("Flyway migrations run before the app starts", "db", "procedure", "keywords", List.of("flyway", "migrations"));
        remember("Flyway baseline is version 1", "db", "fact", "keywords", List.of("flyway", "baseline"));
        List<Map<String, Object>> full = fragments(ok("recall", "keywords", List.of("flyway")));
        assertEquals(2, full.size());
        assertTrue(full.stream().noneMatch(f -> f.containsKey("keywords")), "Memento answers keywords only with includeKeywords");
        assertTrue(fragments(ok("recall", "keywords", List.of("flyway"), "includeKeywords", true)).stream()
                .allMatch(f -> ((List<?>) f.get("keywords")).contains("flyway")));
        List<Map<String, Object>> sparse = fragments(ok("recall", "keywords", List.of("flyway"), "fields", List.of("id", "content", "importance")));
        for (int i = 0; i < sparse.size(); i++) {
            assertEquals(List.of("id", "content", "importance"), List.copyOf(sparse.get(i).keySet()));
            assertEquals(full.get(i).get("id"), sparse.get(i).get("id"));
            assertEquals(full.get(i).get("importance"), sparse.get(i).get("importance"));
        }
        Map<String, Object> kw = fragments(ok("recall", "keywords", List.of("flyway"), "fields", List.of("keywords", "workspace", "confidence"))).get(0);
        assertEquals(List.of("keywords", "workspace"), List.copyOf(kw.keySet()), "a field Engram has no data for stays out");
        assertEquals("default", kw.get("workspace"));
        String bad = error("recall", "keywords", List.of("flyway"), "fields", List.of("id", "score"));
        assertTrue(bad.contains("fields 'score' is not a fragment field; send some of id, content, topic"), bad);
        assertTrue(error("recall", "keywords", List.of("flyway"), "fields", List.of(3)).contains("fields"));
        assertTrue(error("recall", "keywords", List.of("flyway"), "includeKeywords", "yes").contains("includeKeywords"));
        assertTrue(error("recall", "keywords", List.of("flyway"), "contextText", 5).contains("contextText"));
        assertEquals(2, fragments(ok("recall", "keywords", List.of("flyway"), "contextText", "Migrating the schema")).size());
    }

    @Test
    void contextTextPrimesTheFragmentsItNamesAndTheirLinksForTheSearchesThatFollow() {
        String schema = remember("Flyway migrations run before the app starts", "db", "fact");
        String linked = remember("The staging database is PostgreSQL 16", "db", "fact", "linkedTo", List.of(schema));
        String quiet = remember("The old cluster's baseline is version 1", "db", "fact");
        String tabs = remember("The team indents with tabs", "style", "fact");
        clock.advance(Duration.ofDays(60)); // a fact's half-life: 0.5 has faded to 0.25
        for (String id : List.of(schema, linked)) {
            assertEquals(0.25, Fragments.importance(store.get(id).orElseThrow(), clock.instant()));
            assertEquals("cold", Fragments.tier(store.get(id).orElseThrow(), clock.instant()));
        }

        Map<String, Object> r = okIn("claude/s1", "recall", "keywords", List.of("tabs"), "contextText", "Running the Flyway migrations before the app starts");
        assertEquals(List.of(tabs), ids(r), "the recall answers its own keywords; the context does not join the answer");
        List<Map<String, Object>> after = fragments(okIn("claude/s2", "recall", "keywords", List.of("flyway", "staging", "baseline"), "excludeSeen", false));
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        after.forEach(f -> byId.put((String) f.get("id"), f));
        for (String id : List.of(schema, linked)) { // the named fragment and the one linked to it
            assertEquals(1L, ((Number) byId.get(id).get("access_count")).longValue(), id + " was primed: " + byId.get(id));
            assertEquals("hot", byId.get(id).get("ttl_tier"));
            assertEquals(0.5, byId.get(id).get("importance"), "primed: its fading starts again from the priming, as from a read");
        }
        assertEquals(0L, ((Number) byId.get(quiet).get("access_count")).longValue(), "a fragment the context does not name");
        assertEquals(0.25, byId.get(quiet).get("importance"));

        okIn("claude/s1", "recall", "keywords", List.of("tabs"), "contextText", "Running the Flyway migrations before the app starts");
        assertEquals(2, store.get(schema).orElseThrow().accessCount(), "once per session in 10 minutes (the s2 recall read it once)");
        String big = error("recall", "keywords", List.of("tabs"), "contextText", "x".repeat(2001));
        assertTrue(big.contains("contextText is 2001 characters; send at most 2000"), big);
        assertEquals(2, store.get(tabs).orElseThrow().accessCount(), "a refused recall reads nothing");
    }

    @SuppressWarnings("unchecked")
    private static List<String> relations(Map<String, Object> r) {
        return fragments(r).stream().filter(f -> f.containsKey("linked"))
                .map(f -> (String) ((Map<String, Object>) f.get("linked")).get("relation")).sorted().toList();
    }

    @Test
    void recallFiltersLinksByRelationAndTypesByDepth() {
        String error = remember("Kafka consumer lag spikes at midnight", "kafka", "error");
        String fix = remember("Raise max.poll.records to 500", "kafka", "procedure");
        String cause = remember("The nightly batch floods the topic", "kafka", "fact");
        String part = remember("Streaming platform overview", "kafka", "fact");
        String decision = remember("We keep Kafka over Pulsar for lag tooling", "kafka", "decision");
        ok("link", "fromId", error, "toId", fix, "relationType", "resolved_by");
        ok("link", "fromId", error, "toId", cause, "relationType", "caused_by");
        ok("link", "fromId", error, "toId", part, "relationType", "part_of");
        // the threshold keeps the graph layer's neighbours (similarity 0.5) out of the hits: they come back as links
        Object[] q = {"keywords", List.of("midnight"), "threshold", 0.9};
        Map<String, Object> plain = ok("recall", q);
        assertEquals(error, ids(plain).get(0));
        assertEquals(List.of("caused_by", "resolved_by"), relations(plain), "part_of is not followed by default");
        Map<String, Object> resolved = ok("recall", with(q, "linkRelationType", "resolved_by"));
        assertEquals(List.of(error, fix), ids(resolved));
        assertEquals(List.of(error, part), ids(ok("recall", with(q, "linkRelationType", "part_of"))));
        assertEquals(List.of(error), ids(ok("recall", with(q, "linkRelationType", "contradicts"))));
        assertTrue(error("recall", with(q, "linkRelationType", "fixes")).contains("linkRelationType 'fixes' is not a relation; send one of related"));
        // depth: Memento's Planner and Executor views, for the hits and the links alike
        Object[] all = {"topic", "kafka"};
        assertEquals(List.of(decision), ids(ok("recall", with(all, "depth", "high-level"))));
        assertEquals(java.util.Set.of(error, fix, cause, part), java.util.Set.copyOf(ids(ok("recall", with(all, "depth", "tool-level")))));
        assertEquals(5, ids(ok("recall", with(all, "depth", "detail"))).size());
        assertEquals(List.of(fix), ids(ok("recall", with(all, "depth", "high-level", "type", "procedure"))), "type wins over depth");
        assertEquals(List.of(decision), ids(ok("recall", "depth", "high-level")), "depth alone lists");
        assertEquals(List.of(), ids(ok("recall", with(q, "depth", "high-level"))), "the error and its links are tool-level");
        assertTrue(error("recall", with(q, "depth", "deep")).contains("depth 'deep' is not a depth; send one of high-level, detail, tool-level"));
    }

    @Test
    void recallAddsTheSessionsNearbyFragmentsAndAnswersCases() {
        String first = (String) okIn("claude/s9", "remember", "content", "Webhook retries hit the rate limit", "topic", "hooks",
                "type", "error", "caseId", "hooks-429", "goal", "Stop webhook 429s").get("id");
        clock.advance(Duration.ofMinutes(10));
        String second = (String) okIn("claude/s9", "remember", "content", "Added jittered backoff to webhook retries", "topic", "hooks",
                "type", "procedure", "caseId", "hooks-429", "resolutionStatus", "resolved", "outcome", "No 429s since").get("id");
        clock.advance(Duration.ofHours(2));
        String later = (String) okIn("claude/s9", "remember", "content", "Lunch order is pizza", "topic", "misc", "type", "fact").get("id");
        String other = (String) okIn("claude/s8", "remember", "content", "Another session's note on webhooks", "topic", "hooks", "type", "fact").get("id");
        Map<String, Object> hit = fragments(ok("recall", "keywords", List.of("rate", "limit"), "includeContext", true, "includeLinks", false)).get(0);
        assertEquals(first, hit.get("id"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> near = (List<Map<String, Object>>) hit.get("nearby_context");
        assertEquals(List.of(second), near.stream().map(n -> n.get("id")).toList(), "same session, within 30 minutes; not " + later + ", " + other);
        assertEquals(List.of("id", "content", "type", "created_at"), List.copyOf(near.get(0).keySet()));
        assertFalse(fragments(ok("recall", "keywords", List.of("rate", "limit"))).get(0).containsKey("nearby_context"));
        Map<String, Object> cases = ok("recall", "keywords", List.of("webhook"), "caseMode", true);
        assertEquals(true, cases.get("caseMode"));
        assertFalse(cases.containsKey("fragments"), "caseMode answers cases, as Memento's tool does");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list = (List<Map<String, Object>>) cases.get("cases");
        assertEquals(1, cases.get("caseCount"));
        Map<String, Object> c1 = list.get(0);
        assertEquals("hooks-429", c1.get("case_id"));
        assertEquals("Stop webhook 429s", c1.get("goal"));
        assertEquals("No 429s since", c1.get("outcome"));
        assertEquals("resolved", c1.get("resolution_status"));
        assertEquals(2, c1.get("fragment_count"));
        assertEquals(2, c1.get("relevance_score"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) c1.get("events");
        assertEquals(List.of(first, second), events.stream().map(e -> e.get("fragment_id")).toList());
        assertTrue(error("recall", "keywords", List.of("webhook"), "caseMode", true, "maxCases", 11).contains("maxCases must be 1..10"));
    }

}
