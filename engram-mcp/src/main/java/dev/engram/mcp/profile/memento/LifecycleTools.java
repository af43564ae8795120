package dev.engram.mcp.profile.memento;

import static dev.engram.mcp.profile.memento.MementoTool.map;

import dev.engram.engine.lifecycle.LifecyclePolicy;
import dev.engram.engine.lifecycle.Maintenance;
import dev.engram.engine.lifecycle.MaintenanceReport;
import dev.engram.engine.lifecycle.StepReport;
import dev.engram.engine.lifecycle.ToolFeedback;
import dev.engram.engine.session.SessionRotation;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.TransportSession;
import dev.engram.memory.MemoryRules;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * tool_feedback, memory_consolidate, get_skill_guide, session_rotate: the lifecycle tools.
 * tool_feedback and memory_consolidate call the engine's lifecycle under {@link LifecyclePolicy#MEMENTO}
 * (feedback-adaptive importance; the maintenance cycle, with the contradiction judge when a model is
 * configured); session_rotate gives the call's HTTP session a new id ({@link SessionRotation}, applied by the HTTP
 * server), and over stdio, which has no session id, answers isError saying so.
 */
final class LifecycleTools {
    static final List<String> SECTIONS = List.of("overview", "lifecycle", "keywords", "search", "episode", "multiplatform",
            "tools", "importance", "experiential", "triggers", "antipatterns");
    private final MementoContext c;
    /** The configured chat model as contradiction judge (ENGRAM_LLM_* / AI_*), or null: the deterministic check alone. */
    private final dev.engram.engine.lifecycle.ContradictionJudge judge;

    LifecycleTools(MementoContext c) {
        this.c = c;
        this.judge = dev.engram.llm.ChatContradictionJudge.fromSettings(c.profile.settings(), dev.engram.mcp.json.JsonText.standard())
                .orElse(null);
    }

    MementoTool toolFeedback() {
        Tool def = Tool.builder("tool_feedback", JsonSchema.input()
                        .string("tool_name", "The tool the feedback is about, e.g. recall (≤64 characters)", "recall")
                        .bool("relevant", "Were the results relevant?")
                        .bool("sufficient", "Were they enough for the task?")
                        .string("suggestion", "≤100 characters", "return error fragments first")
                        .string("context", "≤50 characters", "debugging redis")
                        .string("session_id", "Session id (accepted; the MCP session is recorded)", "s1")
                        .choice("trigger_type", "Default voluntary", ToolFeedback.TRIGGERS)
                        .string("search_event_id", "Accepted; Engram does not log search events", "e1")
                        .strings("fragment_ids", "The fragments the feedback is about: their importance adapts", List.of("m_abcdefghij"))
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .required("tool_name", "relevant", "sufficient").build())
                .title("Tool feedback")
                .description("Rate a tool's answer. The rating is stored (memory_stats shows the counts by tool, the latest "
                        + "suggestions and the per-session precision). The fragments named in fragment_ids adapt their importance: "
                        + "sufficient +5 %, insufficient −2.5 %, irrelevant −5 % (within 0.05..1); a session adapts at most 20 "
                        + "fragments, each once, per 24 hours (the rest are listed in skipped).")
                .annotations(ToolHints.writes(false)).build();
        return new MementoTool(def, this::toolFeedback);
    }

    private Map<String, Object> toolFeedback(ToolArgs a) {
        String zone = c.zone(a);
        String tool = a.text("tool_name");
        if (a.boolOr("relevant") == null) throw new InvalidArgumentException("relevant", "is required: true or false");
        if (a.boolOr("sufficient") == null) throw new InvalidArgumentException("sufficient", "is required: true or false");
        boolean relevant = a.bool("relevant"), sufficient = a.bool("sufficient");
        limit(a, "suggestion", ToolFeedback.MAX_SUGGESTION);
        limit(a, "context", ToolFeedback.MAX_CONTEXT);
        a.textOr("session_id");
        a.textOr("search_event_id");
        ToolFeedback rating = ToolFeedback.of(tool, relevant, sufficient, a.textOr("suggestion"), a.textOr("context"),
                a.textOr("trigger_type"));
        List<String> ids = a.list("fragment_ids");
        List<String> targets = new ArrayList<>();
        if (ids != null) for (String id : ids) targets.add(c.require("fragment_ids", zone, id).memory().id());
        // stored with the rating in one write; the MCP session's window: at most 20 fragments, each once, per 24 hours
        Maintenance.Feedback f = c.engine().maintenance().feedback(zone, a.caller().session(), rating, targets,
                LifecyclePolicy.MEMENTO.feedback());
        List<Map<String, Object>> adjusted = new ArrayList<>(), skipped = new ArrayList<>();
        for (Maintenance.Adapted x : f.rating().adapted()) {
            adjusted.add(map("id", x.id(), "importance_before", x.before(), "importance", x.after()));
        }
        for (Maintenance.Skipped x : f.rating().skipped()) skipped.add(map("id", x.id(), "reason", x.reason()));
        return map("success", true, "id", f.logged().id(), "tool_name", f.logged().tool(), "relevant", relevant,
                "sufficient", sufficient, "adjusted", adjusted, "skipped", skipped);
    }

    private static void limit(ToolArgs a, String name, int max) {
        String v = a.textOr(name);
        if (v != null && v.length() > max) throw new InvalidArgumentException(name, "is " + v.length() + " characters; send at most " + max);
    }

    MementoTool memoryConsolidate() {
        Tool def = Tool.builder("memory_consolidate", JsonSchema.input()
                        .bool("dryRun", "Report what the cycle would change, write nothing")
                        .string("workspace", "Workspace (an Engram zone); every workspace when omitted", "my-project").build())
                .title("Consolidate memory")
                .description("Run Memento's maintenance cycle now (the scheduler also runs it every 6 hours): auto-anchor "
                        + "(10 reads and importance 0.8), typed decay written back, garbage collection (archived first, "
                        + "purged 30 days later, at most 50 a cycle, anchors and permanent fragments never). Returns what each step did.")
                .annotations(ToolHints.writes(true)).build();
        return new MementoTool(def, a -> {
            // every workspace when none is named; a named one is checked by c.zone, under its own name
            String zone = a.textOr(MementoContext.ZONE_ARGUMENT) == null ? null : c.zone(a);
            MaintenanceReport r = c.engine().maintenance().run(LifecyclePolicy.MEMENTO,
                    dev.engram.engine.lifecycle.Maintenance.defaultSteps(LifecyclePolicy.MEMENTO, judge), zone, a.bool("dryRun"));
            return report(r);
        });
    }

    /** The report as Memento-shaped JSON: counts by what happened in {@code results}, each step's findings in {@code steps}. */
    static Map<String, Object> report(MaintenanceReport r) {
        Map<String, Object> results = new LinkedHashMap<>();
        List<Map<String, Object>> steps = new ArrayList<>();
        for (StepReport s : r.steps()) {
            List<Map<String, Object>> findings = new ArrayList<>();
            for (StepReport.Finding f : s.findings()) {
                results.merge(f.kind(), 1, (x, y) -> (Integer) x + (Integer) y);
                findings.add(map("kind", f.kind(), "ids", f.memoryIds(), "detail", f.detail()));
            }
            steps.add(map("step", s.step(), "examined", s.examined(), "changed", s.changed(), "findings", findings));
        }
        return map("success", true, "dryRun", r.dryRun(), "workspace", r.zone(), "results", results,
                "changed", r.changed(), "steps", steps, "startedAt", r.startedAt().toString(),
                "durationMs", java.time.Duration.between(r.startedAt(), r.finishedAt()).toMillis());
    }

    MementoTool sessionRotate() {
        Tool def = Tool.builder("session_rotate", JsonSchema.input()
                        .string("reason", "Why (≤256 characters, one line; default user_request), logged with fingerprints of "
                                + "both ids", "suspected_leak").build())
                .title("Rotate session")
                .description("Give this HTTP session a new id (Mcp-Session-Id) and retire the old one at once, e.g. when it "
                        + "may have leaked; everything the session had carries over. The new id is in newSessionId and in this "
                        + "response's Mcp-Session-Id header: send it from now on (the old one gets 404). Over stdio there is no "
                        + "session id to rotate: refused.")
                .annotations(ToolHints.writes(false)).build();
        return new MementoTool(def, this::sessionRotate);
    }

    private Map<String, Object> sessionRotate(ToolArgs a) {
        String reason = SessionRotation.reason(a.textOr("reason")); // checked first: a bad reason is refused on any transport
        TransportSession session = a.caller().transport();
        if (session == null) {
            throw new EngramUserException("session_rotate: no session id to rotate. It rotates the Mcp-Session-Id of an HTTP "
                    + "session (engram serve --profile memento); this call came over stdio, whose one session has no id that a "
                    + "client sends or anyone could steal. Restart the client for a new session.");
        }
        SessionRotation.Rotated r = session.rotate(reason);
        // Engram's HTTP sessions do not expire by time: they end when the client deletes them or the server stops
        return map("success", true, "newSessionId", r.newId(), "expiresAt", null, "rotatedAt", c.now().toString(),
                "reason", r.reason());
    }

    MementoTool skillGuide() {
        Tool def = Tool.builder("get_skill_guide", JsonSchema.input()
                        .choice("section", "One section; all when omitted", SECTIONS).build())
                .title("Skill guide")
                .description("How to use this memory well: when to remember, which type, keywords, search and the lifecycle.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, a -> {
            String s = a.textOr("section");
            if (s != null && !SECTIONS.contains(s)) {
                throw new InvalidArgumentException("section", MemoryRules.shown(s) + " is not a section; send one of " + String.join(", ", SECTIONS));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (var e : guide().entrySet()) if (s == null || s.equals(e.getKey())) out.put(e.getKey(), e.getValue());
            return map("success", true, "guide", out);
        });
    }

    static Map<String, String> guide() {
        Map<String, String> g = new LinkedHashMap<>();
        g.put("overview", "Memory is a set of atomic fragments (1-3 sentences, at most 300 characters). Start with context, "
                + "save with remember, search with recall, and clean up with forget and amend.");
        g.put("lifecycle", "Importance fades by type (procedure 30 days half-life, fact 60, decision and relation 90; "
                + "errors, preferences, anchors and permanent fragments never). A recalled fragment goes back to the hot tier. "
                + "Every 6 hours (or on memory_consolidate) fragments read 10 times with importance 0.8 become anchors, the "
                + "fading is written back, and unused low-value fragments are archived (restorable; purged 30 days later).");
        g.put("keywords", "Give 2-5 specific keywords (names, error codes, tools); without them five are taken from the content.");
        g.put("search", "recall with keywords finds exact terms; add text for meaning; filter by topic or type; keep tokenBudget small.");
        g.put("episode", "Use type episode (up to 1000 characters) for the story of a session; reflect writes one from narrative_summary.");
        g.put("multiplatform", "Every client sharing this Engram store sees the same fragments; workspace separates projects.");
        g.put("tools", "context, remember, batch_remember, recall, forget, link, amend, reflect, graph_explore, fragment_history, "
                + "memory_stats, memory_consolidate, search_traces, tool_feedback, get_skill_guide.");
        g.put("importance", "0..1. Defaults: preference 0.95, error 0.9, decision 0.8, procedure 0.7, relation and episode 0.6, fact 0.5. "
                + "0.8 and above is permanent.");
        g.put("experiential", "After solving an error: forget the error fragment (or link it resolved_by) and remember the procedure.");
        g.put("triggers", "Remember after a decision, a fix, a learnt preference, a working procedure; reflect at the end of a session.");
        g.put("antipatterns", "Do not store what the code or git history already says, long transcripts, or secrets.");
        return g;
    }
}
