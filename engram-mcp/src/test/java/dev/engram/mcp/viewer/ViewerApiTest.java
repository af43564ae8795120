package dev.engram.mcp.viewer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.RememberCommand;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.EdgeType;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The viewer's JSON routes: shapes, limits, search, path, and refusals that name the parameter. */
class ViewerApiTest {
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private final ViewerApi api = new ViewerApi(engine, "default");

    private void seed() {
        engine.remember(RememberCommand.builder("Postgres runs with 200 connections").key("db-pool").tags(List.of("db")).build());
        engine.remember(RememberCommand.builder("The API pods read from the pgbouncer pool").key("api-pods").build());
        engine.remember(RememberCommand.builder("Deploys go through ArgoCD").key("deploy").build());
        engine.link(new LinkCommand("api-pods", "db-pool", EdgeType.DEPENDS_ON, null, false));
        engine.link(new LinkCommand("deploy", "api-pods", EdgeType.RELATED, null, false));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> m, String field) {
        return (List<Map<String, Object>>) m.get(field);
    }

    @Test
    void graphCarriesNodesWithTierAndFreshnessAndTheirEdges() {
        seed();
        Map<String, Object> g = api.answer("graph", Map.of());
        assertEquals(3, list(g, "nodes").size());
        assertEquals(2, list(g, "edges").size());
        Map<String, Object> first = list(g, "nodes").get(0);
        assertEquals("api-pods", first.get("key"));
        assertEquals(2, first.get("degree"));
        assertEquals("hot", first.get("tier"));
        assertTrue(List.of("fresh", "normal").contains(first.get("freshness")), first.toString());
        assertEquals(Map.of("from", list(g, "edges").get(0).get("from"), "to", list(g, "edges").get(0).get("to"),
                "type", list(g, "edges").get(0).get("type")).keySet().size(), 3);
        Map<String, Object> one = api.answer("graph", Map.of("limit", "1"));
        assertEquals(1, list(one, "nodes").size());
        assertEquals(true, one.get("truncated"));
        assertEquals(3, one.get("totalNodes"));
        assertEquals(1, list(api.answer("graph", Map.of("types", "depends_on")), "edges").size());
        // the page and its JSON are one: every answer serializes
        assertTrue(JsonText.standard().write(g).contains("\"tier\":\"hot\""));
    }

    @Test
    void searchNeighboursMemoryAndPath() {
        seed();
        List<Map<String, Object>> hits = list(api.answer("search", Map.of("q", "ArgoCD")), "nodes");
        assertEquals(List.of("deploy"), hits.stream().map(n -> n.get("key")).toList());
        assertTrue(list(api.answer("search", Map.of("q", "ArgoCD")), "linked").stream().anyMatch(n -> n.get("key").equals("api-pods")),
                "what recall brings along through links is listed apart");
        Map<String, Object> around = api.answer("neighbours", Map.of("id", "api-pods"));
        assertEquals(3, list(around, "nodes").size());
        Map<String, Object> detail = api.answer("memory", Map.of("id", "db-pool"));
        assertEquals("Postgres runs with 200 connections", detail.get("content"));
        assertEquals(1, list(detail, "links").size());
        Map<String, Object> path = api.answer("path", Map.of("from", "deploy", "to", "db-pool"));
        assertEquals(true, path.get("found"));
        assertEquals(2, path.get("hops"));
        assertEquals(List.of("deploy", "api-pods", "db-pool"), list(path, "nodes").stream().map(n -> n.get("key")).toList());
        Map<String, Object> zones = api.answer("zones", Map.of());
        assertEquals(300, zones.get("defaultLimit"));
        assertEquals(2000, zones.get("maxLimit"));
    }

    @Test
    void badInputIsRefusedByName() {
        seed();
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("limit", "5000")))
                .getMessage().contains("1..2000"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("limit", "many")))
                .getMessage().contains("whole number, got 'many'"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("limit", "99999999999999")))
                .getMessage().contains("1..2000"), "a whole number out of range hears the range");
        assertFalse(assertThrows(NotFoundException.class, () -> api.answer("nope", Map.of())).getMessage().contains("''"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("order", "size")))
                .getMessage().contains("degree, importance, recency"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("types", "likes")))
                .getMessage().contains("types"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("graph", Map.of("q", "x")))
                .getMessage().contains("is not a parameter of 'graph'"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> api.answer("search", Map.of()))
                .getMessage().contains("q"));
        assertThrows(NotFoundException.class, () -> api.answer("memory", Map.of("id", "nope")));
        assertThrows(NotFoundException.class, () -> api.answer("everything", Map.of()));
        assertFalse((Boolean) api.answer("path", Map.of("from", "deploy", "to", "db-pool", "types", "related")).get("found"));
    }

    @Test
    void theInlinedPageCarriesD3AndTheSnapshotAndCannotBeBrokenOutOf() {
        seed();
        engine.remember(RememberCommand.builder("tricky </script><script>alert(1)</script> content").key("tricky").build());
        ViewerPage page = new ViewerPage(JsonText.standard());
        String html = page.inlined(api.snapshot(null));
        assertTrue(html.contains("forceSimulation"), "d3 is inlined");
        assertTrue(html.contains("\"mode\":\"embedded\""));
        assertTrue(html.contains("\"key\":\"tricky\""));
        assertFalse(html.contains("</script><script>alert"), "memory text cannot close the script element");
        engine.remember(RememberCommand.builder("Remember to strip <!--<script> from templates.").key("comment").build());
        String withComment = page.inlined(api.snapshot(null));
        int boot = withComment.indexOf("const BOOT = ");
        assertTrue(boot > 0);
        String data = withComment.substring(boot, withComment.indexOf('\n', boot));
        assertFalse(data.contains("<") || data.contains(">"), "no memory's text puts the parser in a script's escaped states: " + data);
        assertTrue(data.contains("strip \\u003c!--\\u003cscript\\u003e from"), "the text reads back the same from JSON");
        assertEquals(html.split("</script>", -1).length, withComment.split("</script>", -1).length,
                "the page closes as many script elements as without that memory");
        assertFalse(html.contains("<!--engram:d3-->"));
        String served = page.served();
        assertTrue(served.contains("<script src=\"assets/d3.min.js\"></script>"));
        assertFalse(served.contains("forceSimulation(") && served.length() > 200_000, "the served page loads d3 separately");
    }
}
