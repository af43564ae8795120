package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.AmendResult;
import dev.engram.engine.ContextResult;
import dev.engram.engine.ExploreResult;
import dev.engram.engine.ForgetResult;
import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportResult;
import dev.engram.engine.LinkResult;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.RememberResult;
import dev.engram.engine.StatsResult;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.rank.QualityScore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one mapping from result records to JSON-shaped maps: MCP's {@code structuredContent} and the
 * CLI's {@code --json} both come from here. Field names are snake_case; absent optional values are
 * left out rather than written as null, so output schemas stay simple and output stays small.
 * Stateless and thread-safe.
 */
public final class StructuredRenderer {

    public Map<String, Object> remember(RememberResult r) {
        Memory m = r.memory();
        Fields f = new Fields()
                .put("id", m.id()).put("key", m.key()).put("zone", m.zone()).put("type", m.type().wireName())
                .put("outcome", r.outcome().name().toLowerCase(java.util.Locale.ROOT))
                .put("inferred_tags", r.inferredTags());
        if (r.nearDuplicate() != null) {
            f.put("near_duplicate", new Fields().put("id", r.nearDuplicate().id()).put("key", r.nearDuplicate().key())
                    .put("similarity", round(r.nearDuplicate().similarity())).put("basis", r.nearDuplicate().basis()).map());
        }
        QualityScore q = r.quality();
        f.put("quality", q == null ? round(m.quality()) : round(q.total()));
        if (q != null) {
            f.put("quality_parts", new Fields().put("tags", round(q.tags())).put("links", round(q.links()))
                    .put("detail", round(q.detail())).put("specificity", round(q.specificity()))
                    .put("recency", round(q.recency())).put("usage", round(q.usage()))
                    .put("origin", round(q.origin())).map());
        }
        return f.put("expires_at", m.expiresAt()).put("occurred_at", m.occurredAt()).put("linked", r.linked()).map();
    }

    public Map<String, Object> recall(RecallResult r) {
        List<Map<String, Object>> results = r.results().stream().map(this::recalled).toList();
        return new Fields().put("mode", r.mode().wireName()).put("results", results)
                .put("candidates", r.candidates()).put("tokens", r.tokens())
                .put("budget_limited", r.budgetLimited()).put("notes", r.notes()).put("layers", r.layers()).map();
    }

    private Map<String, Object> recalled(RecalledMemory rm) {
        Memory m = rm.memory();
        return new Fields().put("id", m.id()).put("key", m.key()).put("type", m.type().wireName())
                .put("zone", m.zone()).put("score", round(rm.score())).put("relevance", round(rm.relevance()))
                .put("content", m.content()).put("tags", m.tags()).put("updated_at", m.updatedAt())
                .put("pinned", m.pinned() ? Boolean.TRUE : null).put("reason", rm.reason()).map();
    }

    public Map<String, Object> forget(ForgetResult r) {
        Memory m = r.memory();
        return new Fields().put("id", m.id()).put("key", m.key()).put("zone", m.zone())
                .put("action", r.action().wireName())
                .put("previous_status", r.previousStatus() == null ? null : r.previousStatus().wireName())
                .put("status", m.status().wireName()).put("restorable_until", r.restorableUntil())
                .put("note", r.note().isEmpty() ? null : r.note()).map();
    }

    /** Counts of every outcome, then one entry per record that is not unchanged. */
    public Map<String, Object> importResult(ImportResult r) {
        Fields counts = new Fields();
        r.counts().forEach((outcome, n) -> counts.put(outcome.wireName(), n));
        List<Map<String, Object>> changes = r.lines().stream().filter(l -> l.outcome() != ImportOutcome.UNCHANGED)
                .map(l -> new Fields().put("id", l.id()).put("key", l.key()).put("zone", l.zone())
                        .put("outcome", l.outcome().wireName()).put("detail", l.detail().isEmpty() ? null : l.detail()).map())
                .toList();
        return new Fields().put("dry_run", r.dryRun()).put("counts", counts.map())
                .put("versions_added", r.versionsAdded()).put("edges_added", r.edgesAdded()).put("edges_dropped", r.edgesDropped())
                .put("zones_created", r.zones().created()).put("zones_completed", r.zones().completed()).put("changes", changes).map();
    }

    public Map<String, Object> amend(AmendResult r) {
        return new Fields().put("memory", memory(r.memory()))
                .put("history", r.history().stream().map(this::version).toList()).map();
    }

    public Map<String, Object> link(LinkResult r) {
        return new Fields().put("from", ref(r.from())).put("to", ref(r.to()))
                .put("type", r.edge().type().wireName()).put("changed", r.changed()).map();
    }

    public Map<String, Object> explore(ExploreResult r) {
        List<Map<String, Object>> neighbours = r.neighbours().stream().map(n -> new Fields()
                .put("key", n.memory().key()).put("id", n.memory().id()).put("type", n.memory().type().wireName())
                .put("hops", n.hops()).put("via", n.via().wireName())
                .put("direction", n.outgoing() ? "out" : "in").put("via_id", n.viaId())
                .put("weight", round(n.weight())).put("content", n.memory().content()).map()).toList();
        return new Fields().put("center", memory(r.center())).put("neighbours", neighbours)
                .put("versions", r.versions().stream().map(this::version).toList()).map();
    }

    public Map<String, Object> pin(Memory m) {
        return new Fields().put("id", m.id()).put("key", m.key()).put("zone", m.zone())
                .put("pinned", m.pinned()).put("priority", m.pinPriority()).map();
    }

    public Map<String, Object> stats(StatsResult s) {
        return new Fields().put("zone", s.zone()).put("total", s.total()).put("by_type", sorted(s.byType()))
                .put("by_zone", sorted(s.byZone())).put("by_status", sorted(s.byStatus()))
                .put("by_tier", sorted(s.byTier())).put("with_ttl", s.withTtl()).put("expired", s.expired())
                .put("quality_buckets", sorted(s.qualityBuckets())).put("average_quality", round(s.averageQuality()))
                .put("hit_rate", round(s.hitRate())).put("duplicate_rate", round(s.duplicateRate()))
                .put("edges", s.edges()).put("pinned", s.pinned()).map();
    }

    public Map<String, Object> context(ContextResult c) {
        Map<String, Object> sections = new LinkedHashMap<>();
        sections.put("pinned", c.pinned().stream().map(this::brief).toList());
        sections.put("warnings", c.warnings().stream().map(this::brief).toList());
        sections.put("important", c.important().stream().map(this::brief).toList());
        sections.put("recent", c.recent().stream().map(this::brief).toList());
        sections.put("relevant", c.relevant().stream().map(this::brief).toList());
        return new Fields().put("zone", c.zone()).put("total_active", c.totalActive()).put("tokens", c.tokens())
                .put("sections", sections).map();
    }

    /** Every field of a memory; used by amend, explore and export. */
    public Map<String, Object> memory(Memory m) {
        return new Fields().put("id", m.id()).put("key", m.key()).put("name", m.name()).put("zone", m.zone())
                .put("type", m.type().wireName()).put("entity_type", m.entityType())
                .put("content", m.content()).put("tags", m.tags())
                .put("file", m.file()).put("path_scope", m.pathScope())
                .put("importance", m.importance() == null ? null : m.importance().wireName())
                .put("quality", m.quality()).put("confidence", m.confidence()).put("status", m.status().wireName())
                .put("created_at", m.createdAt()).put("updated_at", m.updatedAt())
                .put("last_accessed_at", m.lastAccessedAt()).put("access_count", m.accessCount())
                .put("expires_at", m.expiresAt()).put("occurred_at", m.occurredAt()).put("review_interval_days", m.reviewIntervalDays())
                .put("last_verified_at", m.lastVerifiedAt()).put("verify_count", m.verifyCount())
                .put("relevance", m.relevance())
                .put("origin", m.origin().wireName()).put("session", m.session()).put("branch", m.branch())
                .put("pin_priority", m.pinPriority()).put("superseded_at", m.supersededAt())
                .put("superseded_by", m.supersededBy()).put("last_decay_at", m.lastDecayAt()).map();
    }

    public Map<String, Object> version(MemoryVersion v) {
        return new Fields().put("memory_id", v.memoryId()).put("version", v.version()).put("content", v.content())
                .put("tags", v.tags()).put("importance", v.importance() == null ? null : v.importance().wireName())
                .put("replaced_at", v.replacedAt()).map();
    }

    private Map<String, Object> ref(Memory m) {
        return new Fields().put("id", m.id()).put("key", m.key()).map();
    }

    private Map<String, Object> brief(Memory m) {
        return new Fields().put("id", m.id()).put("key", m.key()).put("type", m.type().wireName())
                .put("content", m.content()).put("pinned", m.pinned() ? Boolean.TRUE : null).map();
    }

    private static Map<String, Long> sorted(Map<String, Long> counts) {
        return new TreeMap<>(counts);
    }

    /** Three decimals are plenty for scores and keep every result line short. */
    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** An insertion-ordered map that drops null values and writes instants as ISO-8601 text. */
    private static final class Fields {
        private final Map<String, Object> map = new LinkedHashMap<>();

        Fields put(String name, Object value) {
            if (value instanceof Instant t) {
                map.put(name, t.toString());
            } else if (value != null) {
                map.put(name, value);
            }
            return this;
        }

        Map<String, Object> map() {
            return map;
        }
    }
}
