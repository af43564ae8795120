package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.AmendResult;
import dev.engram.engine.ContextResult;
import dev.engram.engine.ExploreResult;
import dev.engram.engine.ForgetResult;
import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportResult;
import dev.engram.engine.LinkResult;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.ResultCost;
import dev.engram.engine.RememberResult;
import dev.engram.engine.StatsResult;
import dev.engram.mcp.render.TokenEstimate;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryVersion;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one compact, markdown-ish text form of every result, read by agents (MCP text content) and
 * humans (CLI). Every line is written for token economy: no decoration that carries no information.
 * As a {@link ResultCost} it prices exactly the entries it prints, so token budgets cut what the
 * reader receives. Stateless and thread-safe.
 */
public final class TextRenderer implements ResultCost {

    @Override
    public int recalled(RecalledMemory result, RecallMode mode, int rank) {
        return TokenEstimate.of(entry(mode, rank, result));
    }

    @Override
    public int briefingLine(Memory memory) {
        return TokenEstimate.of(briefingEntry(memory));
    }

    public String remember(RememberResult r) {
        Memory m = r.memory();
        StringBuilder sb = new StringBuilder()
                .append(r.outcome().name().toLowerCase(Locale.ROOT)).append(' ')
                .append(m.type().wireName()).append('/').append(m.key()).append(" (").append(m.id()).append(')');
        if (!MemoryRules.DEFAULT_ZONE.equals(m.zone())) sb.append(" in ").append(m.zone());
        sb.append(" · quality ").append(percent(r.quality() == null ? m.quality() : r.quality().total()));
        if (!r.inferredTags().isEmpty()) sb.append("\ninferred tags: ").append(String.join(", ", r.inferredTags()));
        if (!r.linked().isEmpty()) sb.append("\nlinked: ").append(String.join(", ", r.linked()));
        if (m.expiresAt() != null) sb.append("\nexpires: ").append(date(m.expiresAt()));
        if (m.occurredAt() != null) sb.append("\nhappened: ").append(date(m.occurredAt()));
        if (r.nearDuplicate() != null) {
            sb.append("\nnear-duplicate of ").append(r.nearDuplicate().key()).append(" (").append(r.nearDuplicate().id())
                    .append(") · ").append(percent(r.nearDuplicate().similarity()))
                    .append(" similar (").append(r.nearDuplicate().basis()).append(")")
                    .append("; amend that one, or remember again with merge_duplicate=true to merge into it");
        }
        return sb.toString();
    }

    public String recall(RecallResult r) {
        StringBuilder sb = new StringBuilder();
        if (r.results().isEmpty()) {
            sb.append("no memories found");
        }
        int rank = 1;
        for (RecalledMemory rm : r.results()) {
            if (sb.length() > 0) sb.append(r.mode() == RecallMode.INDEX ? "\n" : "\n\n");
            sb.append(entry(r.mode(), rank, rm));
            rank++;
        }
        sb.append("\n\n").append(r.results().size()).append(" of ").append(r.candidates()).append(" · ~")
                .append(r.tokens()).append(" tokens");
        if (r.budgetLimited()) sb.append(" · cut by token budget");
        for (String note : r.notes()) sb.append("\nnote: ").append(note);
        if (r.results().stream().anyMatch(x -> x.reason() != null) && !r.layers().isEmpty()) {
            sb.append("\nlayers: ").append(String.join(" → ", r.layers()));
        }
        return sb.toString();
    }

    /** One result as printed: a line in index mode, the full entry otherwise. */
    private static String entry(RecallMode mode, int rank, RecalledMemory rm) {
        return mode == RecallMode.INDEX ? indexLine(rm) : fullEntry(rank, rm);
    }

    private static String fullEntry(int rank, RecalledMemory rm) {
        Memory m = rm.memory();
        // sized for the whole entry: growing from 16 chars copied it four or five times (JFR: 7% of a recall's allocation)
        StringBuilder sb = new StringBuilder(128 + m.key().length() + m.content().length()).append('[').append(rank).append("] ")
                .append(m.type().wireName()).append('/').append(m.key()).append(" (").append(m.id()).append(") · ")
                .append(percent(rm.relevance()));
        if (m.pinned()) sb.append(" · pinned");
        if (m.occurredAt() != null) sb.append(" · happened ").append(date(m.occurredAt()));
        sb.append('\n').append(m.content());
        if (!m.tags().isEmpty()) sb.append("\ntags: ").append(String.join(", ", m.tags()));
        if (rm.reason() != null && !rm.reason().isBlank()) sb.append("\nwhy: ").append(rm.reason());
        return sb.toString();
    }

    private static String indexLine(RecalledMemory rm) {
        Memory m = rm.memory();
        // without a query every relevance is 0: not worth a token per line
        return m.key() + " " + m.id() + " " + m.type().wireName() + " " + date(m.updatedAt())
                + (rm.relevance() > 0 ? " " + percent(rm.relevance()) : "");
    }

    public String forget(ForgetResult r) {
        Memory m = r.memory();
        String verb = switch (r.action()) {
            case SOFT -> "archived";
            case HARD -> "deleted";
            case RESTORE -> "restored";
            case PURGE -> "erased for good";
        };
        return verb + " " + m.type().wireName() + "/" + m.key() + " (" + m.id() + ")"
                + (r.previousStatus() == null ? "; was deleted" : "; was " + r.previousStatus().wireName())
                + (r.restorableUntil() == null ? "" : "; action restore brings it back until " + r.restorableUntil())
                + (r.note().isEmpty() ? "" : "; " + r.note());
    }

    /** One line: every outcome's count (zeros too, so a reader sees nothing was replaced), then versions and edges. */
    public String importSummary(ImportResult r) {
        StringBuilder sb = new StringBuilder(r.dryRun() ? "dry run, nothing written; would have: " : "");
        r.counts().forEach((outcome, n) -> {
            if (outcome != ImportOutcome.CONFLICT || n > 0) sb.append(outcome.label()).append(' ').append(n).append(", ");
        });
        sb.append("versions added ").append(r.versionsAdded()).append(", edges added ").append(r.edgesAdded());
        if (!r.zones().created().isEmpty()) sb.append(", zones created ").append(String.join(" ", r.zones().created()));
        if (!r.zones().completed().isEmpty()) {
            sb.append(", zones given the file's descriptions or earlier creation ").append(String.join(" ", r.zones().completed()));
        }
        if (r.edgesDropped() > 0) {
            sb.append("; ").append(r.edgesDropped()).append(r.edgesDropped() == 1 ? " edge" : " edges")
                    .append(" left out: the other end is in neither the file nor the store");
        }
        return sb.toString();
    }

    /** A line per record that is not unchanged: what happened to it and why. */
    public String importChanges(ImportResult r) {
        StringBuilder sb = new StringBuilder();
        for (ImportResult.Line l : r.lines()) {
            if (l.outcome() == ImportOutcome.UNCHANGED) continue;
            if (sb.length() > 0) sb.append('\n');
            sb.append(l.outcome().label()).append(' ').append(l.key()).append(" (").append(l.id()).append(')');
            if (!MemoryRules.DEFAULT_ZONE.equals(l.zone())) sb.append(" in ").append(l.zone());
            if (!l.detail().isEmpty()) sb.append(": ").append(l.detail());
        }
        return sb.length() == 0 ? "no changes" : sb.toString();
    }

    public String amend(AmendResult r) {
        StringBuilder sb = new StringBuilder("amended ").append(headline(r.memory())).append('\n')
                .append(r.memory().content());
        if (!r.memory().tags().isEmpty()) sb.append("\ntags: ").append(String.join(", ", r.memory().tags()));
        if (r.memory().importance() != null) sb.append("\nimportance: ").append(r.memory().importance().wireName());
        if (!r.history().isEmpty()) {
            sb.append("\nhistory:");
            for (MemoryVersion v : r.history()) sb.append('\n').append(version(v));
        }
        return sb.toString();
    }

    public String link(LinkResult r) {
        String edge = r.from().key() + " --" + r.edge().type().wireName() + "--> " + r.to().key();
        return (r.changed() ? "" : "unchanged: ") + edge;
    }

    public String explore(ExploreResult r) {
        StringBuilder sb = new StringBuilder(headline(r.center())).append('\n').append(r.center().content());
        if (r.neighbours().isEmpty()) sb.append("\nno linked memories");
        for (ExploreResult.Neighbour n : r.neighbours()) {
            sb.append('\n').append(n.hops() == 1 ? "- " : "  - ").append(n.outgoing() ? "--" : "<-")
                    .append(n.via().wireName()).append(n.outgoing() ? "--> " : "-- ")
                    .append(headline(n.memory())).append(" · ").append(percent(n.weight()));
        }
        if (!r.versions().isEmpty()) {
            sb.append("\nversions:");
            for (MemoryVersion v : r.versions()) sb.append('\n').append(version(v));
        }
        return sb.toString();
    }

    public String pin(Memory m) {
        return (m.pinned() ? "pinned " + headline(m) + " · priority " + m.pinPriority() : "unpinned " + headline(m));
    }

    public String stats(StatsResult s) {
        StringBuilder sb = new StringBuilder("zone: ").append(s.zone() == null ? "all" : s.zone())
                .append(" · ").append(s.total()).append(" memories · ").append(s.edges()).append(" links · ")
                .append(s.pinned()).append(" pinned");
        counts(sb, "types", s.byType());
        if (s.zone() == null) counts(sb, "zones", s.byZone());
        counts(sb, "status", s.byStatus());
        counts(sb, "tiers", s.byTier());
        counts(sb, "quality", s.qualityBuckets());
        sb.append("\naverage quality ").append(percent(s.averageQuality())).append(" · hit rate ")
                .append(percent(s.hitRate())).append(" · duplicates ").append(percent(s.duplicateRate()))
                .append(" · with TTL ").append(s.withTtl()).append(" · expired ").append(s.expired());
        return sb.toString();
    }

    public String context(ContextResult c) {
        StringBuilder sb = new StringBuilder("# Engram briefing · zone ").append(c.zone()).append(" · ")
                .append(c.totalActive()).append(" active memories");
        section(sb, "Pinned", c.pinned());
        section(sb, "Warnings", c.warnings());
        section(sb, "Important", c.important());
        section(sb, "Recent", c.recent());
        section(sb, "Relevant to the task", c.relevant());
        if (c.totalActive() == 0) {
            sb.append("\n\nNo memories yet. Call remember after decisions, fixes and discoveries.");
        }
        return sb.toString();
    }

    private static void section(StringBuilder sb, String title, List<Memory> memories) {
        if (memories.isEmpty()) return;
        sb.append("\n\n## ").append(title);
        for (Memory m : memories) {
            sb.append('\n').append(briefingEntry(m));
        }
    }

    private static String briefingEntry(Memory m) {
        return "- " + m.type().wireName() + "/" + m.key() + ": " + m.content();
    }

    private static void counts(StringBuilder sb, String label, Map<String, Long> counts) {
        if (counts.isEmpty()) return;
        sb.append('\n').append(label).append(':');
        new TreeMap<>(counts).forEach((k, v) -> sb.append(' ').append(k).append(' ').append(v));
    }

    private static String headline(Memory m) {
        return m.type().wireName() + "/" + m.key() + " (" + m.id() + ")";
    }

    private static String version(MemoryVersion v) {
        return "v" + v.version() + " " + date(v.replacedAt()) + ": " + v.content();
    }

    static String percent(double share) {
        return Math.round(share * 100) + "%";
    }

    private static String date(Instant t) {
        return t == null ? "-" : t.toString().substring(0, 10);
    }
}
