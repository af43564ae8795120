package dev.engram.mcp.profile.memento;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.MemoryStatus;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Memento's exported and stored fragments brought into Engram, then read back through the memento profile's own tools. */
class MementoDataTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), clock);
    private final JsonText json = JsonText.standard();

    /** What {@code memento-mcp export} writes: one fragment per line, Korean content included. */
    static final String EXPORT = String.join("\n",
            "{\"id\":\"frag_redis01\",\"content\":\"Redis NOAUTH 에러는 REDIS_PASSWORD 누락 때문이다\",\"topic\":\"레디스\",\"type\":\"error\","
                    + "\"keywords\":[\"redis\",\"noauth\",\"비밀번호\"],\"importance\":0.9,\"agent_id\":\"default\","
                    + "\"created_at\":\"2026-10-02T08:00:00.000Z\",\"is_anchor\":false}",
            "{\"id\":\"frag_redis02\",\"content\":\"Set REDIS_PASSWORD in .env and restart the worker\",\"topic\":\"레디스\","
                    + "\"type\":\"procedure\",\"keywords\":[\"redis\",\"env\"],\"importance\":0.7,"
                    + "\"created_at\":\"2026-10-02T09:00:00.000Z\",\"idempotency_key\":\"fix-redis-auth\"}",
            "",
            "{\"id\":\"4a2c7e0e-5b1d-4c53-9a57-3f0e2e9c1d11\",\"content\":\"팀은 탭 대신 스페이스 두 칸을 쓴다\",\"topic\":\"style\","
                    + "\"type\":\"preference\",\"keywords\":[],\"importance\":0.95,\"created_at\":\"2026-09-01T00:00:00Z\",\"is_anchor\":true}",
            "{\"id\":\"frag_ep\",\"content\":\"Session: we chased the Redis auth failure for an hour and fixed it.\",\"topic\":\"레디스\","
                    + "\"type\":\"episode\",\"created_at\":\"2026-10-02T10:00:00Z\"}",
            "");

    private CallToolResult call(String tool, Object... kv) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) args.put((String) kv[i], kv[i + 1]);
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String tool, Object... kv) {
        CallToolResult r = call(tool, kv);
        String text = ((TextContent) r.content().get(0)).text();
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + text);
        return (Map<String, Object>) r.structuredContent();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> fragments(Map<String, Object> r) {
        return (List<Map<String, Object>>) r.get("fragments");
    }

    @Test
    void anExportFileAnswersTheProfilesToolsAsIfRememberedThere() {
        MementoData.Loaded loaded = MementoData.toRecords(MementoData.parseExport(EXPORT, json), "default", clock.instant());
        assertEquals(4, loaded.records().size());
        ImportResult dry = MementoData.importInto(engine, loaded, true);
        assertEquals(4, dry.count(ImportOutcome.CREATED));
        assertEquals(0, store.count(), "a dry run writes nothing");

        MementoData.importInto(engine, loaded, false);
        assertEquals(4, store.count());

        // found by its Korean keyword and topic, typed, with its importance, under its Memento id
        List<Map<String, Object>> hits = fragments(ok("recall", "keywords", List.of("누락"), "includeKeywords", true));
        assertEquals(1, hits.size(), hits.toString());
        Map<String, Object> error = hits.get(0);
        assertEquals("error", error.get("type"));
        assertEquals("레디스", error.get("topic"));
        assertEquals(0.9, error.get("importance"));
        assertTrue(((List<?>) error.get("keywords")).contains("비밀번호"), error.toString());
        List<Map<String, Object>> topic = fragments(ok("recall", "topic", "레디스", "keywords", List.of("redis")));
        assertTrue(topic.size() >= 2 && topic.stream().allMatch(f -> "레디스".equals(f.get("topic"))), topic.toString());
        assertEquals(true, ok("fragment_history", "id", "frag_redis01").get("success"), "a fragment is found by its Memento id");

        // the anchor is pinned and permanent; the episode keeps its type
        Map<String, Object> pref = fragments(ok("recall", "keywords", List.of("스페이스"))).get(0);
        assertEquals(true, pref.get("is_anchor"));
        assertEquals("permanent", pref.get("ttl_tier"));
        assertEquals("episode", fragments(ok("recall", "keywords", List.of("chased"))).get(0).get("type"));

        // an idempotent remember after the move returns the imported fragment, not a second one
        Map<String, Object> again = ok("remember", "content", "Set REDIS_PASSWORD in .env and restart the worker", "topic", "레디스",
                "type", "procedure", "idempotencyKey", "fix-redis-auth");
        assertEquals(MementoData.id("frag_redis02"), again.get("id"));
        assertEquals(4, store.count());

        // importing the same file again finds the same memories
        ImportResult twice = MementoData.importInto(engine, loaded, false);
        assertEquals(0, twice.count(ImportOutcome.CREATED), twice.toString());
        assertEquals(4, store.count());
    }

    @Test
    void tableRowsBringLinksVersionsAndSupersession() {
        List<Map<String, Object>> fragments = List.of(
                row("id", "e1", "content", "Deploy fails: missing JDK", "topic", "ci", "type", "error", "importance", 0.9,
                        "keywords", new String[]{"deploy", "jdk"}, "created_at", java.sql.Timestamp.from(clock.instant().minusSeconds(86_400)),
                        "access_count", 7, "ttl_tier", "hot"),
                row("id", "p1", "content", "Install temurin-17 in the CI image", "topic", "ci", "type", "procedure", "importance", 0.7,
                        "keywords", "{install,temurin}", "linked_to", new String[]{"e1"}),
                row("id", "p0", "content", "Install temurin-11 in the CI image", "topic", "ci", "type", "procedure", "importance", 0.7,
                        "valid_to", "2026-11-01T00:00:00Z", "superseded_by", "p1"),
                row("id", "bad", "content", " ", "topic", "ci", "type", "fact"));
        List<Map<String, Object>> links = List.of(
                row("from_id", "e1", "to_id", "p1", "relation_type", "resolved_by", "created_at", "2026-11-30T00:00:00Z"),
                row("from_id", "e1", "to_id", "ghost", "relation_type", "caused_by"),
                row("from_id", "p1", "to_id", "e1", "relation_type", "co_retrieved"));
        List<Map<String, Object>> versions = List.of(
                row("fragment_id", "p1", "content", "Install a JDK in CI", "amended_at", "2026-11-20T00:00:00Z"));
        MementoData.Loaded loaded = MementoData.toRecords(new MementoData.Rows(fragments, links, versions), "default", clock.instant());
        assertTrue(loaded.problems().stream().anyMatch(p -> p.contains("bad has no content")), loaded.problems().toString());
        assertTrue(loaded.problems().stream().anyMatch(p -> p.contains("ghost")), loaded.problems().toString());
        MementoData.importInto(engine, loaded, false);
        assertEquals(3, store.count());

        Map<String, Object> g = ok("graph_explore", "startId", "e1");
        assertTrue(String.valueOf(g.get("tree")).contains("resolved_by"), g.toString());
        Map<String, Object> h = ok("fragment_history", "id", "p1");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> past = (List<Map<String, Object>>) h.get("versions");
        assertEquals("Install a JDK in CI", past.get(0).get("content"));
        assertEquals(List.of(MementoData.id("p0")), h.get("supersedes"));
        assertEquals(MemoryStatus.SUPERSEDED, store.get(MementoData.id("p0")).orElseThrow().status());
        assertEquals(7, store.get(MementoData.id("e1")).orElseThrow().accessCount());
        assertTrue(fragments(ok("recall", "keywords", List.of("temurin"))).stream().noneMatch(f -> f.get("id").equals(MementoData.id("p0"))),
                "a superseded fragment leaves recall");
    }

    @Test
    void caseFieldsComeAcrossAsRememberWouldHaveStoredThemKoreanIncluded() {
        String line = "{\"id\":\"frag_case1\",\"content\":\"배포가 JDK 누락으로 실패한다\",\"topic\":\"빌드\",\"type\":\"error\","
                + "\"keywords\":[\"jdk\"],\"case_id\":\"배포-장애-12\",\"goal\":\"배포를 복구한다\",\"outcome\":\"temurin-17 설치 후 통과\","
                + "\"phase\":\"점검\",\"resolution_status\":\"RESOLVED\",\"assertion_status\":\"verified\",\"affect\":\"frustration\","
                + "\"context_summary\":\"금요일 배포 중\\n두 번째 시도\"}\n"
                + "{\"id\":\"frag_plain\",\"content\":\"The API answers in JSON\",\"topic\":\"api\",\"type\":\"fact\","
                + "\"assertion_status\":\"observed\",\"affect\":\"neutral\",\"case_id\":\"\",\"goal\":null}";
        MementoData.Loaded loaded = MementoData.toRecords(MementoData.parseExport(line, json), "default", clock.instant());
        var rec = loaded.records().get(0);
        assertEquals(Map.of("goal", "배포를 복구한다", "outcome", "temurin-17 설치 후 통과", "context_summary", "금요일 배포 중\n두 번째 시도"),
                rec.notes());
        assertEquals("배포-장애-12", rec.tagWords().get(Fragments.tagFor(Fragments.CASE, "배포-장애-12")));
        assertEquals("점검", rec.tagWords().get(Fragments.tagFor(Fragments.PHASE, "점검")));
        assertEquals("빌드", rec.tagWords().get(Fragments.tagFor(Fragments.TOPIC, "빌드")));
        assertTrue(loaded.records().get(1).notes().isEmpty() && loaded.records().get(1).tagWords().isEmpty(), loaded.records().get(1).toString());
        MementoData.importInto(engine, loaded, false);

        Map<String, Object> f = fragments(ok("recall", "keywords", List.of("jdk"))).get(0);
        assertEquals("배포-장애-12", f.get("case_id"));
        assertEquals("배포를 복구한다", f.get("goal"));
        assertEquals("temurin-17 설치 후 통과", f.get("outcome"));
        assertEquals("점검", f.get("phase"));
        assertEquals("resolved", f.get("resolution_status"));
        assertEquals("verified", f.get("assertion_status"));
        assertEquals("frustration", f.get("affect"));
        assertEquals("금요일 배포 중\n두 번째 시도", f.get("context_summary"));
        assertEquals(1, fragments(ok("recall", "caseId", "배포-장애-12")).size(), "the case filter finds it");
        Map<String, Object> plain = fragments(ok("recall", "keywords", List.of("json"))).get(0);
        assertFalse(plain.containsKey("case_id") || plain.containsKey("affect") || plain.containsKey("assertion_status")
                || plain.containsKey("goal"), plain.toString());
        Map<String, Object> story = ok("reconstruct_history", "caseId", "배포-장애-12");
        assertEquals(1, ((List<?>) story.get("ordered_timeline")).size(), story.toString());
    }

    @Test
    void aCaseFieldOutsideMementosValuesRefusesTheSourceNamingTheFragment() {
        String good = "{\"id\":\"ok1\",\"content\":\"fine\",\"topic\":\"t\",\"type\":\"fact\"}\n";
        for (String[] bad : new String[][] {
                {"\"affect\":\"angry\"", "fragment b1: affect 'angry' is not an affect; send one of neutral, frustration"},
                {"\"resolution_status\":\"closed\"", "fragment b1: resolution_status 'closed' is not a status; send one of open, resolved, abandoned"},
                {"\"assertion_status\":\"maybe\"", "fragment b1: assertion_status 'maybe' is not an assertion status"},
                {"\"phase\":\"" + "p".repeat(51) + "\"", "fragment b1: phase is 51 characters"},
                {"\"case_id\":\"" + "c".repeat(256) + "\"", "fragment b1: case_id is 256 characters; send at most 255"},
                {"\"goal\":\"" + "목".repeat(2001) + "\"", "fragment b1: goal is 2001 characters; send at most 2000"}}) {
            String text = good + "{\"id\":\"b1\",\"content\":\"x\",\"topic\":\"t\",\"type\":\"fact\"," + bad[0] + "}";
            EngramUserException e = assertThrows(EngramUserException.class,
                    () -> MementoData.toRecords(MementoData.parseExport(text, json), "default", clock.instant()));
            assertTrue(e.getMessage().startsWith(bad[1]), e.getMessage());
        }
        assertEquals(0, store.count());
        // Memento's own limits pass: a 255-character case id and a long goal
        String longOk = "{\"id\":\"l1\",\"content\":\"x\",\"topic\":\"t\",\"type\":\"fact\",\"case_id\":\"" + "c".repeat(255)
                + "\",\"goal\":\"" + "g".repeat(1500) + "\"}";
        var rec = MementoData.toRecords(MementoData.parseExport(longOk, json), "default", clock.instant()).records().get(0);
        assertEquals(1500, rec.notes().get("goal").length());
        assertEquals("c".repeat(255), rec.tagWords().get(Fragments.tagFor(Fragments.CASE, "c".repeat(255))));
    }

    @Test
    void aMalformedLineRefusesTheFileNamingTheLine() {
        EngramUserException e = assertThrows(EngramUserException.class,
                () -> MementoData.parseExport("{\"id\":\"a\",\"content\":\"x\",\"topic\":\"t\"}\n{not json\n", json));
        assertTrue(e.getMessage().startsWith("line 2: "), e.getMessage());
        assertEquals(2, MementoData.parseExport("[{\"id\":\"a\",\"content\":\"x\",\"topic\":\"t\"},"
                + "{\"id\":\"b\",\"content\":\"y\",\"topic\":\"t\"}]", json).fragments().size(), "the --json array form");
    }

    @Test
    void idsAreStableAndKeysKeepTheMementoId() {
        assertEquals(MementoData.id("frag_x"), MementoData.id("frag_x"));
        assertTrue(dev.engram.memory.MemoryRules.isId(MementoData.id("frag_x")));
        assertEquals("frag_3f8a1c", MementoData.key("frag_3f8a1c"));
        assertEquals("4a2c7e0e-5b1d-4c53-9a57-3f0e2e9c1d11", MementoData.key("4a2c7e0e-5b1d-4c53-9a57-3f0e2e9c1d11"));
        assertEquals("memento-frag-abc", MementoData.key("Frag ABC"));
    }

    private static Map<String, Object> row(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }
}
