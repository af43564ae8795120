package dev.engram.engine;

import static dev.engram.engine.EngineFixture.recall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.rank.Contribution;
import dev.engram.rank.RankFusion;
import dev.engram.testing.PlainCost;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A recall's per-query graph depth, rank fusion and caller biases (what toon-memory's recall arguments ask). */
class RecallBiasTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final EngineFixture f = new EngineFixture();

    private List<String> keys(RecallResult r) {
        return r.results().stream().map(x -> x.memory().key()).toList();
    }

    private static Optional<Contribution> part(RecalledMemory r, String name) {
        return r.contributions().stream().filter(c -> c.name().equals(name)).findFirst();
    }

    private RecalledMemory only(RecallResult r, String key) {
        return r.results().stream().filter(x -> x.memory().key().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError(key + " not in " + keys(r)));
    }

    private void file(String key, String content, String file, String scope) {
        f.engine.remember(new RememberCommand(content, key, MemoryType.FACT, null, null, null, null, null, file, scope,
                null, false, null, null));
    }

    @Test
    void hopsSetHowFarARankedRecallWalksFromItsHits() {
        f.remember("seed", "The billing service retries webhooks", MemoryType.FACT, List.of());
        f.remember("near", "Stripe signs every callback", MemoryType.FACT, List.of());
        f.remember("far", "Signing secrets rotate monthly", MemoryType.FACT, List.of());
        f.engine.link(new LinkCommand("seed", "near", EdgeType.RELATED, null, false));
        f.engine.link(new LinkCommand("near", "far", EdgeType.RELATED, null, false));

        List<String> one = keys(f.engine.recall(recall("billing webhooks").hops(1).build(), COST));
        assertEquals(List.of("seed", "near"), one);
        List<String> two = keys(f.engine.recall(recall("billing webhooks").hops(2).build(), COST));
        assertEquals(List.of("seed", "near", "far"), two);
        var refused = assertThrows(InvalidArgumentException.class, () -> recall("billing").hops(3).build());
        assertTrue(refused.getMessage().contains("hops must be 1 or 2, got 3"), refused.getMessage());
    }

    @Test
    void aTwoHopWalkFromSeveralHitsReadsTheirEdgesOnceAHop() {
        // five hits, each linked to a neighbour of its own that links on: asked hit by hit, that was a read per memory
        // and hop (a statement each on PostgreSQL)
        for (int i = 0; i < 5; i++) {
            f.remember("hit" + i, "The billing service retries webhooks, case " + i, MemoryType.FACT, List.of());
            f.remember("near" + i, "Callback signature number " + i, MemoryType.FACT, List.of());
            f.remember("far" + i, "Rotation schedule number " + i, MemoryType.FACT, List.of());
            f.engine.link(new LinkCommand("hit" + i, "near" + i, EdgeType.RELATED, null, false));
            f.engine.link(new LinkCommand("near" + i, "far" + i, EdgeType.RELATED, null, false));
        }
        int before = f.store.edgeReads();
        List<String> found = keys(f.engine.recall(recall("billing webhooks").hops(2).limit(15).build(), COST));
        assertEquals(2, f.store.edgeReads() - before, "one read of edges per hop");
        for (int i = 0; i < 5; i++) {
            assertTrue(found.containsAll(List.of("hit" + i, "near" + i, "far" + i)), "each hit's chain is walked: " + found);
        }
    }

    @Test
    void rankFusionScoresByRanksAndKeepsOnlyToonsBoosts() {
        f.remember("hub", "Deploy runbook for the cluster", MemoryType.PROCEDURE, List.of());
        f.remember("plain", "Deploy runbook deploy steps deploy", MemoryType.PROCEDURE, List.of());
        f.remember("trap", "Never deploy on Fridays", MemoryType.WARNING, List.of());
        for (String other : List.of("a", "b", "c")) {
            f.remember(other, "Unrelated note " + other, MemoryType.FACT, List.of());
            f.engine.link(new LinkCommand("hub", other, EdgeType.RELATED, null, false));
        }
        RecallResult fused = f.engine.recall(recall("deploy runbook").rankFusion(true).hops(1).explain(true).build(), COST);
        int n = fused.candidates();
        int k = RankFusion.k(n);
        for (RecalledMemory r : fused.results()) {
            assertTrue(part(r, "fusion").isPresent(), r.reason());
            assertFalse(part(r, "quality").isPresent() || part(r, "freshness").isPresent() || part(r, "match").isPresent(),
                    "rank fusion adds only toon's boosts: " + r.reason());
        }
        // the hub is the most linked candidate: its centrality vote is 1/(k+0)
        double hub = part(only(fused, "hub"), "fusion").orElseThrow().value();
        int hubMatchRank = (int) Math.round(3 / (hub - 1.0 / k) - k);
        assertTrue(hubMatchRank >= 0 && hubMatchRank < n, "hub's fused score " + hub + " is 3/(k+r) + 1/k for k " + k);
        assertEquals(0.2, part(only(fused, "trap"), "warning").orElseThrow().value(), 1e-9);
        assertTrue(only(fused, "trap").reason().contains("rank fusion"), only(fused, "trap").reason());

        RecallResult linear = f.engine.recall(recall("deploy runbook").hops(1).build(), COST);
        assertTrue(part(linear.results().get(0), "match").isPresent(), "the weighted sum stays the default");
    }

    @Test
    void aSessionFileLiftsItsMemoryIntoTheLimit() {
        file("cache-ttl", "The cache keeps entries for ten minutes", "src/other.ts", null);
        file("cache-size", "The cache keeps entries up to 512 MB", "src/cache.ts", null);
        String first = keys(f.engine.recall(recall("cache keeps entries").limit(1).build(), COST)).get(0);
        String second = first.equals("cache-ttl") ? "cache-size" : "cache-ttl";
        String secondFile = second.equals("cache-size") ? "src/cache.ts" : "src/other.ts";

        RecallBias bias = RecallBias.NONE.withFiles(List.of("./" + secondFile + ":12"), 1.15);
        RecallResult biased = f.engine.recall(recall("cache keeps entries").limit(1).bias(bias).explain(true).build(), COST);
        assertEquals(List.of(second), keys(biased), "the favoured file's memory comes within limit 1");
        RecalledMemory top = biased.results().get(0);
        double rest = top.contributions().stream().filter(c -> !c.name().equals("file")).mapToDouble(Contribution::value).sum();
        assertEquals(0.15 * rest, part(top, "file").orElseThrow().value(), 1e-9);
        assertTrue(top.reason().contains("about a file of this session"), top.reason());
    }

    @Test
    void scriptFolderAndNudgesAddWhatTheCallerSays() {
        file("ko", "redis 캐시 비밀번호 설정 필요", null, null);
        file("en", "redis cache needs a password", null, "*");
        String enId = f.engine.recall(recall("redis").build(), COST).results().stream()
                .filter(r -> r.memory().key().equals("en")).findFirst().orElseThrow().memory().id();
        RecallBias bias = RecallBias.NONE.withSameScript(0.1).withFolder(".", 0.05)
                .withNudge(m -> m.id().equals(enId) ? new RecallBias.Nudge(0.15, "evidence conflict") : null);

        RecallResult korean = f.engine.recall(recall("redis 캐시 설정").bias(bias).explain(true).build(), COST);
        assertEquals(0.1, part(only(korean, "ko"), "script").orElseThrow().value(), 1e-9);
        assertFalse(part(only(korean, "en"), "script").isPresent());
        assertEquals(0.05, part(only(korean, "en"), "folder").orElseThrow().value(), 1e-9);
        assertFalse(part(only(korean, "ko"), "folder").isPresent(), "no path scope, no folder boost");
        assertEquals(0.15, part(only(korean, "en"), "nudge").orElseThrow().value(), 1e-9);
        assertTrue(only(korean, "en").reason().contains("evidence conflict"), only(korean, "en").reason());

        RecallResult english = f.engine.recall(recall("redis password").bias(bias).build(), COST);
        assertTrue(part(only(english, "en"), "script").isPresent());
        assertTrue(english.results().stream().noneMatch(r -> r.memory().key().equals("ko") && part(r, "script").isPresent()));
    }

    @Test
    void biasRefusesFactorsOutsideItsRange() {
        assertThrows(IllegalArgumentException.class, () -> RecallBias.NONE.withFiles(Set.of("a"), 0.5));
        assertThrows(IllegalArgumentException.class, () -> RecallBias.NONE.withSameScript(Double.NaN));
        assertEquals("src/a.ts", RecallBias.normalFile(".\\src\\a.ts:12:3"));
        assertEquals("C:/x/a.ts", RecallBias.normalFile("C:/x/a.ts"));
    }
}
