package dev.engram.mcp.profile.memento;

import static dev.engram.mcp.profile.memento.MementoTool.map;
import static dev.engram.mcp.profile.memento.MementoTool.number;

import dev.engram.crypto.Sha256;
import dev.engram.engine.AmendCommand;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.LinkSpec;
import dev.engram.engine.PinCommand;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.Origin;
import dev.engram.rank.NumericImportance;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** remember, batch_remember, amend, forget, link, reflect: Memento's writes, each validated whole before anything is written. */
final class WriteTools {
    /** The types whose fragments join their session's case on a topic when no caseId is sent (Memento's auto case). */
    static final java.util.Set<String> AUTO_CASE_TYPES = java.util.Set.of("error", "procedure", "decision");
    static final List<String> RELATIONS = List.of("related", "caused_by", "resolved_by", "part_of", "contradicts");
    static final int MAX_BATCH = 200;
    private final MementoContext c;

    WriteTools(MementoContext c) {
        this.c = c;
    }

    /** One fragment to write, checked; {@link #write} stores it. */
    record Draft(String content, String topic, String type, List<String> keywords, double importance, boolean session,
                 boolean anchor, List<String> linkedTo, List<String> supersedes, String idempotencyKey) {
    }

    // --- remember -----------------------------------------------------------------------------------------

    MementoTool remember() {
        Tool def = Tool.builder("remember", JsonSchema.input()
                        .string("content", "One atomic fragment, 1-3 sentences (≤300 characters; episode ≤1000)",
                                "Redis NOAUTH error: set REDIS_PASSWORD in .env")
                        .string("topic", "What it is about, e.g. a project or subsystem", "redis")
                        .choice("type", "Kind of fragment", Fragments.TYPES)
                        .strings("keywords", "Search keywords; up to five are taken from the content when omitted", List.of("redis", "noauth"))
                        .property("importance", number("0..1; default by type (error 0.9, preference 0.95, decision 0.8, procedure 0.7, relation/episode 0.6, fact 0.5)", 0, 1, 0.7))
                        .string("source", "Where it came from (accepted, not stored)", "session")
                        .strings("linkedTo", "Fragment ids to link as related", List.of("m_abcdefghij"))
                        .choice("scope", "permanent (default) or session: working memory that expires after 24 h", List.of("permanent", "session"))
                        .bool("isAnchor", "Anchor: never decays, never collected, leads recall")
                        .strings("supersedes", "Fragment ids this one replaces (they leave recall)", List.of("m_abcdefghij"))
                        .string("idempotencyKey", "≤128 characters; a repeat with the same key returns the first id", "deploy-2026-12-01")
                        .string("caseId", "A case (task, incident) this fragment belongs to; reconstruct_history tells its story. "
                                + "Default: an error, procedure or decision joins the case of this session's earlier fragments on "
                                + "the topic, and an error opens a new one", "redis-outage-12")
                        .choice("resolutionStatus", "Where the case stands with this fragment", Fragments.RESOLUTIONS)
                        .string("goal", "What the episode set out to do (≤1000 characters)", "Make the CLI connect to a remote server")
                        .string("outcome", "How it ended (≤1000 characters)", "--remote works with the auth header; 12 tests pass")
                        .string("phase", "Stage of the work (≤50 characters), e.g. planning, debugging, implementation, verification", "debugging")
                        .choice("assertionStatus", "How sure: observed (default), inferred (not checked yet), verified, rejected", Fragments.ASSERTIONS)
                        .choice("affect", "Emotional tag: neutral (default), frustration, confidence, surprise, doubt, satisfaction", Fragments.AFFECTS)
                        .string("contextSummary", "1-2 sentences on the situation the fragment came from (≤1000 characters); recall returns it",
                                "Found while deploying v2.11 right after migration 030")
                        .bool("dryRun", "Validate and show what would be stored, write nothing")
                        .string("sessionId", "Session id (accepted; the MCP session is used)", "s1")
                        .string("workspace", "Workspace (an Engram zone); default the server's", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default")
                        .required("content", "topic", "type").build())
                .title("Remember a fragment")
                .description("Store one atomic memory fragment (fact, decision, error, preference, procedure, relation, episode). "
                        + "Identical content merges (merged: true).")
                .annotations(ToolHints.writes(false)).build();
        return new MementoTool(def, this::remember);
    }

    private Map<String, Object> remember(ToolArgs a) {
        String zone = MemoryRules.newZone(MementoContext.ZONE_ARGUMENT, c.zone(a));
        Draft d = draft(a.text("content"), a.text("topic"), a.text("type"), a.list("keywords"),
                a.numberOr("importance", 0, 1), a.textOr("scope"), a.bool("isAnchor"), a.list("linkedTo"),
                a.list("supersedes"), a.textOr("idempotencyKey"), "");
        CaseFields k = caseFields(a); // checked before a dry run answers or anything is written
        if (a.bool("dryRun")) {
            for (String id : d.linkedTo) c.require("linkedTo", zone, id);
            for (String id : d.supersedes) c.require("supersedes", zone, id);
            Map<String, Object> f = map("id", "<would-generate>", "content", d.content, "topic", d.topic, "type", d.type,
                    "keywords", d.keywords, "importance", d.importance, "ttl_tier", initialTier(d), "scope", d.session ? "session" : "permanent");
            f.putAll(k.fields());
            // the conflicts the write would report, found as it would find them; nothing is written
            List<Map<String, Object>> conflicts = new ArrayList<>();
            boolean zoneExists = c.engine().zones().contains(zone);
            if (zoneExists) {
                for (var x : c.engine().conflictsOf(command(zone, d, a, List.of(), Map.of()))) {
                    conflicts.add(map("id", x.id(), "content", x.content()));
                }
            }
            // Memento's shape: its policy rules and per-key quota do not exist here, so no warning and no limit
            Map<String, Object> quota = map("limit", null, "current", zoneExists ? c.live(zone).size() : 0, "remaining", null,
                    "resetAt", null);
            return map("dryRun", true, "simulated", map("fragment", f, "conflicts", conflicts, "validation_warnings", List.of(),
                    "quota", quota));
        }
        if (d.idempotencyKey != null) {
            var seen = c.record(zone, idempotencyKey(d.idempotencyKey));
            if (seen.isPresent()) return map("id", seen.get().memory().id(), "idempotent", true);
        }
        String session = a.caller().session();
        if (k.caseId() == null && session != null && AUTO_CASE_TYPES.contains(d.type)) {
            // Memento's auto case: join the case this session's fragments on the topic are on; an error opens one
            String joined = c.sessionCase(zone, session, d.topic).orElse(d.type.equals("error") ? java.util.UUID.randomUUID().toString() : null);
            if (joined != null) k = k.withCase(joined);
        }
        // the links first: a case id's or phase's spelling is kept in a store mark, which a refusal must not leave behind
        for (String id : d.linkedTo) c.require("linkedTo", zone, id);
        for (String id : d.supersedes) c.require("supersedes", zone, id);
        RememberResult r = write(zone, d, a, k.tags(c.fragments::tag), k.notes());
        if (k.caseId() != null && session != null) c.sessionCase(zone, session, d.topic, k.caseId());
        Map<String, Object> out = map("success", true, "id", r.memory().id(), "keywords", d.keywords,
                "ttl_tier", Fragments.tier(reread(zone, r.memory()), c.now()),
                "scope", d.session ? "session" : "permanent", "merged", r.outcome() != RememberResult.Outcome.CREATED,
                "conflicts", conflicts(r));
        if (k.caseId() != null) out.put("case_id", c.fragments.word(Fragments.tagFor(Fragments.CASE, k.caseId()), Fragments.CASE));
        return out;
    }

    /**
     * Memento's {@code conflicts}: each existing fragment the new one may contradict, with what to do. The write went
     * through; the engine's check found the pair ({@link RememberResult.Conflict}).
     */
    static List<Map<String, Object>> conflicts(RememberResult r) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RememberResult.Conflict k : r.conflicts()) {
            String snippet = k.content().length() <= 100 ? k.content() : k.content().substring(0, 100);
            out.add(map("existing_id", k.id(), "existing_content", snippet, "similarity", k.similarity(),
                    "basis", k.basis(), "detail", k.detail(),
                    "recommendation", "check which is right: amend or forget fragment " + k.id() + ", or this one"));
        }
        return out;
    }

    private Memory reread(String zone, Memory m) {
        return c.record(zone, m.id()).map(ExportRecord::memory).orElse(m);
    }

    /** The tier the draft gets when stored: the engine's placement of a memory with its fields at its creation. */
    static String initialTier(Draft d) {
        java.time.Instant t = java.time.Instant.EPOCH;
        Memory m = Memory.builder().id("draft").key("draft").type(Fragments.engineType(d.type)).content(d.content)
                .tags(d.type.equals(Fragments.EPISODE) ? List.of(Fragments.EPISODE) : List.of())
                .importance(NumericImportance.level(d.importance)).relevance(NumericImportance.toRelevance(d.importance))
                .pinPriority(d.anchor ? 3 : 0).expiresAt(d.session ? t.plus(java.time.Duration.ofDays(1)) : null)
                .createdAt(t).updatedAt(t).build();
        return dev.engram.engine.lifecycle.LifecyclePolicy.MEMENTO.initialTier(m).wireName();
    }

    /** A topic's limits, the same for remember and amend: well formed, at most 100 characters. */
    private static void checkTopic(String at, String topic) {
        MemoryRules.requireWellFormed(at + "topic", topic);
        if (topic.strip().length() > 100) {
            throw new InvalidArgumentException(at + "topic", "is " + topic.strip().length() + " characters; send at most 100");
        }
    }

    /** Keywords stripped and distinct, within the limits remember and amend share: at most 15, each at most 36 characters. */
    private static List<String> checkedKeywords(String at, List<String> keywords) {
        List<String> kws = keywords.stream().map(String::strip).filter(k -> !k.isEmpty()).distinct().toList();
        if (kws.size() > 15) throw new InvalidArgumentException(at + "keywords", "has " + kws.size() + " entries; send at most 15");
        for (String k : kws) {
            MemoryRules.requireWellFormed(at + "keywords", k);
            if (k.length() > 36) throw new InvalidArgumentException(at + "keywords", MemoryRules.shown(k) + " is longer than 36 characters; send single words");
        }
        return kws;
    }

    /** Checks one fragment's fields; {@code at} prefixes the field names ("fragments[3].") in messages. */
    Draft draft(String content, String topic, String type, List<String> keywords, Double importance, String scope,
                boolean anchor, List<String> linkedTo, List<String> supersedes, String idempotencyKey, String at) {
        String t = Fragments.parseTypeAt(at + "type", type);
        String text = Fragments.content(at + "content", content, t);
        if (topic == null || topic.isBlank()) {
            throw new InvalidArgumentException(at + "topic", "is required: what the fragment is about, e.g. \"redis\"");
        }
        checkTopic(at, topic);
        List<String> kws = checkedKeywords(at, keywords == null || keywords.isEmpty() ? Fragments.extractKeywords(text) : keywords);
        boolean session = false;
        if (scope != null) {
            String s = scope.strip().toLowerCase(Locale.ROOT);
            if (!s.equals("permanent") && !s.equals("session")) {
                throw new InvalidArgumentException(at + "scope", MemoryRules.shown(scope) + " is not a scope; send permanent or session");
            }
            session = s.equals("session");
        }
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 128)) {
            throw new InvalidArgumentException(at + "idempotencyKey", "must be 1..128 characters, got " + idempotencyKey.length());
        }
        List<String> links = ids(at + "linkedTo", linkedTo), replaced = ids(at + "supersedes", supersedes);
        return new Draft(text, topic.strip(), t, kws, importance != null ? importance : Fragments.defaultImportance(t),
                session, anchor, links, replaced, idempotencyKey);
    }

    private static List<String> ids(String field, List<String> values) {
        if (values == null) return List.of();
        return values.stream().map(v -> MemoryRules.reference(field, v)).distinct().toList();
    }

    /** remember's v3 case fields, checked before anything is written ({@link CaseFields}). */
    private static CaseFields caseFields(ToolArgs a) {
        Map<String, String> raw = new LinkedHashMap<>();
        for (String name : CaseFields.NAMES) raw.put(name, a.textOr(name));
        return CaseFields.check(raw, CaseFields.Limits.REMEMBER, name -> name);
    }

    /** An optional value of a closed list (case-insensitive), or null; anything else refused naming the values. */
    static String choice(ToolArgs a, String field, List<String> allowed, String what) {
        String v = a.textOr(field);
        if (v == null || v.isBlank()) return null;
        String s = v.strip().toLowerCase(Locale.ROOT);
        if (!allowed.contains(s)) {
            throw new InvalidArgumentException(field, MemoryRules.shown(v) + " is not " + what + "; send one of " + String.join(", ", allowed));
        }
        return s;
    }

    /** Stores a checked draft: links and superseded ids must exist (the engine refuses before writing), then the anchor pin. */
    RememberResult write(String zone, Draft d, ToolArgs a, List<String> extraTags, Map<String, String> notes) {
        for (String id : d.linkedTo) c.require("linkedTo", zone, id);
        for (String id : d.supersedes) c.require("supersedes", zone, id);
        RememberResult r = c.engine().remember(command(zone, d, a, extraTags, notes));
        if (d.anchor && !r.memory().pinned()) c.engine().pin(new PinCommand(r.memory().id(), zone, 3));
        for (String id : d.supersedes) halve(zone, id);
        return r;
    }

    /** Memento's supersede: the replaced fragment keeps half its importance (at least 0.05), so it fades and can be collected. */
    private void halve(String zone, String id) {
        Memory old = c.record(zone, id).map(ExportRecord::memory).orElse(null);
        if (old == null) return;
        double before = NumericImportance.of(old);
        double after = Math.max(SUPERSEDED_FLOOR, Math.round(before * 0.5 * 1000) / 1000.0);
        if (after < before) {
            c.engine().amend(new AmendCommand(old.id(), zone, null, null, NumericImportance.level(after), NumericImportance.toRelevance(after)));
        }
    }

    private static final double SUPERSEDED_FLOOR = 0.05;

    /** The engine's command for a checked draft: the fragment's tags (topic, keywords, episode, scope), importance and expiry. */
    private RememberCommand command(String zone, Draft d, ToolArgs a, List<String> extraTags, Map<String, String> notes) {
        List<String> tags = new ArrayList<>();
        tags.add(c.fragments.tag(Fragments.TOPIC, d.topic));
        if (d.type.equals(Fragments.EPISODE)) tags.add(Fragments.EPISODE);
        if (d.session) tags.add(Fragments.SESSION_SCOPE);
        tags.addAll(extraTags);
        for (String k : d.keywords) {
            if (tags.size() >= MemoryRules.MAX_TAGS) break;
            tags.add(c.fragments.tag(Fragments.KEYWORD, k));
        }
        List<LinkSpec> links = new ArrayList<>();
        d.linkedTo.forEach(id -> links.add(new LinkSpec(EdgeType.RELATED, id)));
        d.supersedes.forEach(id -> links.add(new LinkSpec(EdgeType.SUPERSEDES, id)));
        RememberCommand cmd = RememberCommand.builder(d.content)
                .key(d.idempotencyKey == null ? null : idempotencyKey(d.idempotencyKey))
                .type(Fragments.engineType(d.type)).tags(tags).zone(zone)
                .importance(NumericImportance.level(d.importance)).relevance(NumericImportance.toRelevance(d.importance))
                .ttl(d.session ? "24h" : null).links(links).origin(Origin.AGENT).notes(notes)
                .session(a.caller().session()).branch(a.caller().branch()).build();
        return cmd;
    }

    static String idempotencyKey(String key) {
        return "idem-" + Sha256.hex(key, 10);
    }

    // --- batch_remember -----------------------------------------------------------------------------------

    MementoTool batchRemember() {
        Map<String, Object> item = map("content", map("type", "string"), "topic", map("type", "string"),
                "type", map("type", "string", "enum", Fragments.TYPES), "importance", map("type", "number", "minimum", 0, "maximum", 1),
                "keywords", map("type", "array", "items", map("type", "string")), "idempotencyKey", map("type", "string"));
        Tool def = Tool.builder("batch_remember", JsonSchema.input()
                        .property("fragments", map("type", "array", "description", "Up to 200 fragments: content, topic, type, optional importance, keywords, idempotencyKey",
                                "maxItems", MAX_BATCH, "items", map("type", "object", "properties", item, "required", List.of("content", "topic", "type"))))
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default")
                        .required("fragments").build())
                .title("Remember many fragments")
                .description("Store up to 200 fragments at once, in one transaction. All are checked first: one bad fragment refuses the batch "
                        + "and nothing is written. Each result says merged and lists its conflicts, as remember does.")
                .annotations(ToolHints.writes(false)).build();
        return new MementoTool(def, this::batchRemember);
    }

    private Map<String, Object> batchRemember(ToolArgs a) {
        String zone = MemoryRules.newZone(MementoContext.ZONE_ARGUMENT, c.zone(a));
        List<Map<String, Object>> items = a.objects("fragments");
        if (items == null || items.isEmpty()) {
            throw new InvalidArgumentException("fragments", "is required: an array of {content, topic, type} objects");
        }
        if (items.size() > MAX_BATCH) throw new InvalidArgumentException("fragments", "has " + items.size() + " items; send at most " + MAX_BATCH);
        List<Draft> drafts = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> it = items.get(i);
            String at = "fragments[" + i + "].";
            for (String k : it.keySet()) {
                if (!List.of("content", "topic", "type", "importance", "keywords", "idempotencyKey", "workspace").contains(k)) {
                    throw new InvalidArgumentException(at + k, "is not a fragment field; send content, topic, type, importance, keywords, idempotencyKey");
                }
            }
            drafts.add(draft(str(it, at, "content"), str(it, at, "topic"), str(it, at, "type"), strs(it, at, "keywords"),
                    num(it, at, "importance"), null, false, null, null, str(it, at, "idempotencyKey"), at));
        }
        // an idempotency key stored before answers with its fragment's id; a key repeated inside the batch with the earlier item's
        List<Slot> slots = new ArrayList<>();
        List<RememberCommand> commands = new ArrayList<>();
        Map<String, Integer> keyed = new LinkedHashMap<>();
        for (Draft d : drafts) {
            if (d.idempotencyKey != null) {
                var seen = c.record(zone, idempotencyKey(d.idempotencyKey));
                if (seen.isPresent()) {
                    slots.add(new Slot(seen.get().memory().id(), -1, true));
                    continue;
                }
                Integer earlier = keyed.get(d.idempotencyKey);
                if (earlier != null) {
                    slots.add(new Slot(null, earlier, true));
                    continue;
                }
                keyed.put(d.idempotencyKey, commands.size());
            }
            slots.add(new Slot(null, commands.size(), false));
            commands.add(command(zone, d, a, List.of(), Map.of()));
        }
        // one transaction: every fragment is stored, or (the storage failing part way) none is
        List<RememberResult> written = c.engine().rememberAll(commands);
        List<Map<String, Object>> results = new ArrayList<>();
        int inserted = 0, merged = 0;
        for (Slot slot : slots) {
            if (slot.idempotent()) {
                String id = slot.storedId() != null ? slot.storedId() : written.get(slot.command()).memory().id();
                results.add(map("id", id, "idempotent", true));
                continue;
            }
            RememberResult r = written.get(slot.command());
            boolean m = r.outcome() != RememberResult.Outcome.CREATED;
            if (m) merged++;
            else inserted++;
            results.add(map("id", r.memory().id(), "merged", m, "conflicts", conflicts(r)));
        }
        return map("success", true, "inserted", inserted, "merged", merged, "results", results);
    }

    /**
     * What one batch item answers: the fragment an idempotency key stored before names ({@code storedId}), or
     * command {@code command} of the batch, as its own write or ({@code idempotent}) as a repeat of its key.
     */
    private record Slot(String storedId, int command, boolean idempotent) {
    }

    private static String str(Map<String, Object> it, String at, String k) {
        Object v = it.get(k);
        if (v == null) return null;
        if (v instanceof String s) return s;
        throw new InvalidArgumentException(at + k, "must be a string, got " + v.getClass().getSimpleName().toLowerCase(Locale.ROOT));
    }

    private static Double num(Map<String, Object> it, String at, String k) {
        Object v = it.get(k);
        if (v == null) return null;
        if (v instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= 1) return n.doubleValue();
        throw new InvalidArgumentException(at + k, "must be a number 0..1, got " + MemoryRules.shown(String.valueOf(v)));
    }

    private static List<String> strs(Map<String, Object> it, String at, String k) {
        Object v = it.get(k);
        if (v == null) return null;
        if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)) return l.stream().map(String.class::cast).toList();
        throw new InvalidArgumentException(at + k, "must be an array of strings, e.g. [\"redis\", \"auth\"]");
    }

    // --- amend --------------------------------------------------------------------------------------------

    MementoTool amend() {
        Tool def = Tool.builder("amend", JsonSchema.input()
                        .string("id", "Fragment id", "m_abcdefghij")
                        .string("content", "New content (≤300 characters; episode ≤1000)", "Redis NOAUTH: REDIS_PASSWORD must match requirepass")
                        .string("topic", "New topic", "redis")
                        .strings("keywords", "New keywords (replace the old ones)", List.of("redis", "auth"))
                        .choice("type", "The fragment's type; changing it is not supported (remember a new one with supersedes)", Fragments.TYPES)
                        .property("importance", number("New importance 0..1", 0, 1, 0.8))
                        .bool("isAnchor", "true pins the fragment as an anchor, false releases it")
                        .bool("dryRun", "Show the change, write nothing")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default")
                        .required("id").build())
                .title("Amend a fragment")
                .description("Edit a fragment in place, keeping its id and links; the previous content is kept as a version (fragment_history).")
                .annotations(ToolHints.writes(true)).build();
        return new MementoTool(def, this::amend);
    }

    private Map<String, Object> amend(ToolArgs a) {
        String zone = c.zone(a);
        Memory m = c.require("id", zone, a.text("id")).memory();
        String type = Fragments.typeOf(m);
        String newType = a.textOr("type") == null ? null : Fragments.parseType(a.textOr("type"));
        if (newType != null && !newType.equals(type)) {
            throw new InvalidArgumentException("type", "cannot change from " + type + " to " + newType
                    + " here; remember a new " + newType + " fragment with supersedes: [\"" + m.id() + "\"]");
        }
        String content = a.textOr("content") == null ? null : Fragments.content("content", a.textOr("content"), type);
        String topic = a.textOr("topic");
        if (topic != null && topic.isBlank()) throw new InvalidArgumentException("topic", "is blank; send a topic or omit it");
        if (topic != null) checkTopic("", topic);
        List<String> keywords = a.list("keywords") == null ? null : checkedKeywords("", a.list("keywords"));
        Double importance = a.numberOr("importance", 0, 1);
        Boolean anchor = a.boolOr("isAnchor");
        List<String> updated = new ArrayList<>();
        if (content != null) updated.add("content");
        if (topic != null) updated.add("topic");
        if (keywords != null) updated.add("keywords");
        if (importance != null) updated.add("importance");
        if (anchor != null) updated.add("isAnchor");
        if (updated.isEmpty()) {
            throw new InvalidArgumentException("id", "names the fragment, but nothing to change was sent; send content, topic, keywords, importance or isAnchor");
        }
        if (a.bool("dryRun")) return map("dryRun", true, "id", m.id(), "updated", updated);
        List<String> tags = null;
        if (topic != null || keywords != null) {
            LinkedHashSet<String> t = new LinkedHashSet<>();
            for (String old : m.tags()) {
                if (topic != null && old.startsWith(Fragments.TOPIC)) continue;
                if (keywords != null && old.startsWith(Fragments.KEYWORD)) continue;
                t.add(old);
            }
            if (topic != null) t.add(c.fragments.tag(Fragments.TOPIC, topic.strip()));
            if (keywords != null) for (String k : keywords) if (t.size() < MemoryRules.MAX_TAGS) t.add(c.fragments.tag(Fragments.KEYWORD, k));
            tags = List.copyOf(t);
        }
        if (content != null || tags != null || importance != null) {
            c.engine().amend(new AmendCommand(m.id(), zone, content, tags,
                    importance == null ? null : NumericImportance.level(importance),
                    importance == null ? null : NumericImportance.toRelevance(importance)));
        }
        if (anchor != null && anchor != m.pinned()) c.engine().pin(new PinCommand(m.id(), zone, anchor ? 3 : 0));
        Memory now = c.require("id", zone, m.id()).memory();
        return map("success", true, "id", m.id(), "updated", updated, "fragment", c.fragments.render(now, c.clock));
    }

    // --- forget -------------------------------------------------------------------------------------------

    MementoTool forget() {
        Tool def = Tool.builder("forget", JsonSchema.input()
                        .string("id", "Fragment id to forget", "m_abcdefghij")
                        .string("topic", "Forget every fragment of this topic", "redis")
                        .bool("force", "Needed for fragments in the permanent tier")
                        .bool("dryRun", "Show what would be forgotten")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default").build())
                .title("Forget fragments")
                .description("Delete a fragment (by id) or a topic's fragments, with their links. Engram keeps a deleted fragment "
                        + "restorable for 30 days (engram forget --restore). After fixing an error: forget the error, remember the procedure.")
                .annotations(ToolHints.destructive(true)).build();
        return new MementoTool(def, this::forget);
    }

    private Map<String, Object> forget(ToolArgs a) {
        String zone = c.zone(a);
        String id = a.textOr("id"), topic = a.textOr("topic");
        boolean hasId = id != null && !id.isBlank(), hasTopic = topic != null && !topic.isBlank();
        if (hasId == hasTopic) {
            throw new InvalidArgumentException(hasId ? "topic" : "id", hasId ? "and id were both sent; send one of them"
                    : "or topic is required: the fragment id to forget, or a topic to forget all of its fragments");
        }
        List<ExportRecord> targets;
        if (hasId) {
            targets = List.of(c.require("id", zone, id));
        } else {
            String tag = Fragments.tagFor(Fragments.TOPIC, topic);
            targets = c.fragments.records(zone).stream().filter(r -> Fragments.live(r.memory(), c.now()) && r.memory().tags().contains(tag)).toList();
        }
        int links = targets.stream().mapToInt(r -> r.edges().size()).sum();
        List<String> ids = targets.stream().map(r -> r.memory().id()).toList();
        if (a.bool("dryRun")) return map("dryRun", true, "targets", ids, "links", links);
        if (!a.bool("force")) {
            for (ExportRecord r : targets) {
                if ("permanent".equals(Fragments.tier(r.memory(), c.now()))) {
                    throw new InvalidArgumentException("force", "is needed: fragment " + r.memory().id()
                            + " is in the permanent tier; send force: true to forget it" + (hasTopic ? " (nothing was forgotten)" : ""));
                }
            }
        }
        for (String target : ids) c.engine().forget(new ForgetCommand(target, zone, ForgetAction.HARD));
        return map("success", true, "deleted", ids.size(), "ids", ids);
    }

    // --- link ---------------------------------------------------------------------------------------------

    /** Memento's relation types on Engram's edges: part_of has no edge of its own and is stored as depends_on. */
    static EdgeType edge(String relation) {
        return relation.equals("part_of") ? EdgeType.DEPENDS_ON : EdgeType.parse("relationType", relation);
    }

    static String relation(EdgeType e) {
        return switch (e) {
            case DEPENDS_ON -> "part_of";
            case SUPERSEDES -> "superseded_by";
            case FOLLOWS -> "temporal";
            default -> e.wireName();
        };
    }

    MementoTool link() {
        Tool def = Tool.builder("link", JsonSchema.input()
                        .string("fromId", "Fragment id the relation starts at", "m_abcdefghij")
                        .string("toId", "Fragment id it points to", "m_klmnopqrst")
                        .choice("relationType", "Kind of relation; default related", RELATIONS)
                        .property("weight", number("0..1, default 1 (accepted; Engram weighs by relation type)", 0, 1, 1.0))
                        .bool("dryRun", "Check both ends exist, write nothing")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default")
                        .required("fromId", "toId").build())
                .title("Link two fragments")
                .description("Relate two fragments: error caused_by cause, error resolved_by procedure, part_of, contradicts, related.")
                .annotations(ToolHints.writes(true)).build();
        return new MementoTool(def, this::link);
    }

    private Map<String, Object> link(ToolArgs a) {
        String zone = c.zone(a);
        String from = a.text("fromId").strip(), to = a.text("toId").strip();
        String rel = a.textOr("relationType") == null ? "related" : a.textOr("relationType").strip().toLowerCase(Locale.ROOT);
        if (!RELATIONS.contains(rel)) {
            throw new InvalidArgumentException("relationType", MemoryRules.shown(rel) + " is not a relation; send one of " + String.join(", ", RELATIONS));
        }
        a.numberOr("weight", 0, 1);
        Memory f = c.require("fromId", zone, from).memory(), t = c.require("toId", zone, to).memory();
        if (f.id().equals(t.id())) throw new InvalidArgumentException("toId", "is the same fragment as fromId; link two different fragments");
        if (a.bool("dryRun")) return map("dryRun", true, "fromId", f.id(), "toId", t.id(), "relationType", rel);
        c.engine().link(new LinkCommand(f.id(), t.id(), edge(rel), zone, false));
        return map("success", true, "fromId", f.id(), "toId", t.id(), "relationType", rel);
    }

    /** A text or a list of texts, each kept whole (a sentence's commas do not split it); blank items are dropped. */
    static List<String> texts(ToolArgs a, String name) {
        List<String> items;
        try {
            items = a.exactStrings(name);
        } catch (InvalidArgumentException notList) {
            try {
                String one = a.textOr(name);
                items = one == null ? null : List.of(one);
            } catch (InvalidArgumentException notText) {
                throw new InvalidArgumentException(name, "must be a string or an array of strings, e.g. [\"first item\", \"second\"]");
            }
        }
        return items == null ? null : items.stream().filter(x -> !x.isBlank()).map(String::strip).toList();
    }

    // --- reflect ------------------------------------------------------------------------------------------

    MementoTool reflect() {
        Tool def = Tool.builder("reflect", JsonSchema.input()
                        .strings("summary", "What the session established, one fragment per item (a string or a list)", List.of("The API now validates with zod"))
                        .strings("decisions", "Decisions taken", List.of("Chose PostgreSQL over MySQL for JSONB"))
                        .strings("errors_resolved", "\"Cause: X → Resolution: Y\" items", List.of("Cause: missing REDIS_PASSWORD → Resolution: set it in .env"))
                        .strings("new_procedures", "Procedures learnt", List.of("Deploy: run migrations, then restart workers"))
                        .strings("open_questions", "What is still open", List.of("Why does the nightly job time out?"))
                        .string("narrative_summary", "3-5 sentences on the session; stored as an episode", "We fixed the Redis auth error ...")
                        .string("topic", "Topic of the fragments; default session_reflect", "my-project")
                        .string("sessionId", "Session id (accepted; the MCP session is used)", "s1")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default").build())
                .title("Reflect on a session")
                .description("Turn a session into fragments: each summary item a fact, decisions, resolved errors, new procedures, "
                        + "open questions, and the narrative as an episode; at most " + MAX_BATCH + " items in all. All items are checked "
                        + "before any is written.")
                .annotations(ToolHints.writes(false)).build();
        return new MementoTool(def, this::reflect);
    }

    private Map<String, Object> reflect(ToolArgs a) {
        String zone = MemoryRules.newZone(MementoContext.ZONE_ARGUMENT, c.zone(a));
        String topic = a.textOr("topic") == null || a.textOr("topic").isBlank() ? "session_reflect" : a.textOr("topic");
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("summary", "fact");
        kinds.put("decisions", "decision");
        kinds.put("errors_resolved", "error");
        kinds.put("new_procedures", "procedure");
        kinds.put("open_questions", "fact");
        // as many fragments as one batch_remember may write: every item is a write, and a call runs to its end
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String list : kinds.keySet()) lists.put(list, texts(a, list));
        int count = lists.values().stream().mapToInt(l -> l == null ? 0 : l.size()).sum();
        if (count > MAX_BATCH) {
            throw new InvalidArgumentException("summary", "and the other lists hold " + count + " items together; send at most "
                    + MAX_BATCH + " in one reflect, and the rest in another call");
        }
        List<Draft> drafts = new ArrayList<>();
        List<List<String>> extraTags = new ArrayList<>();
        for (var k : kinds.entrySet()) {
            List<String> items = lists.get(k.getKey());
            if (items == null) continue;
            for (int i = 0; i < items.size(); i++) {
                String text = items.get(i);
                // Memento's reflect: a resolved error is settled (0.5, resolved), an open question is to follow up (0.4, open),
                // so neither stays permanent nor is injected by context forever, and resolutionStatus finds both
                Double importance = null;
                List<String> tags = List.of();
                if (k.getKey().equals("errors_resolved")) {
                    text = "[resolved] " + text;
                    importance = 0.5;
                    tags = List.of(Fragments.RESOLUTION + "resolved");
                }
                if (k.getKey().equals("open_questions")) {
                    text = "[open] " + text;
                    importance = 0.4;
                    tags = List.of(Fragments.RESOLUTION + "open");
                }
                drafts.add(draft(text, topic, k.getValue(), null, importance, null, false, null, null, null, k.getKey() + "[" + i + "]."));
                extraTags.add(tags);
            }
        }
        String narrative = a.textOr("narrative_summary");
        if ((narrative == null || narrative.isBlank()) && !drafts.isEmpty()) {
            // as Memento: without a narrative, the session's episode is told from its first eight fragments
            narrative = drafts.stream().limit(8).map(d -> (EPISODE_PREFIX.containsKey(d.type) ? EPISODE_PREFIX.get(d.type) + " " : "")
                    + d.content).collect(java.util.stream.Collectors.joining(". "));
            if (narrative.length() > Fragments.MAX_EPISODE_CHARS) narrative = narrative.substring(0, Fragments.MAX_EPISODE_CHARS - 1) + "…";
        }
        if (narrative != null && !narrative.isBlank()) {
            drafts.add(draft(narrative, topic, "episode", null, 0.6, null, false, null, null, null, "narrative_summary."));
            extraTags.add(List.of());
        }
        if (drafts.isEmpty()) {
            throw new InvalidArgumentException("summary", "or another list is required: send summary, decisions, errors_resolved, "
                    + "new_procedures, open_questions or narrative_summary");
        }
        // one transaction, as batch_remember: the session's fragments are all stored, or (storage failing part way) none
        List<RememberCommand> commands = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) commands.add(command(zone, drafts.get(i), a, extraTags.get(i), Map.of()));
        List<RememberResult> written = c.engine().rememberAll(commands);
        clearWorkingMemory(zone, a);
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            RememberResult r = written.get(i);
            out.add(map("id", r.memory().id(), "type", drafts.get(i).type, "merged", r.outcome() != RememberResult.Outcome.CREATED));
        }
        return map("success", true, "count", out.size(), "fragments", out);
    }

    private static final Map<String, String> EPISODE_PREFIX = Map.of("decision", "[decision]", "error", "[error]",
            "procedure", "[procedure]");

    /** A reflect ends the session's working memory, as Memento clears it: what mattered is in the reflection now. */
    private void clearWorkingMemory(String zone, ToolArgs a) {
        for (Memory m : c.live(zone, a)) {
            if (!m.tags().contains(Fragments.SESSION_SCOPE) || !java.util.Objects.equals(m.session(), a.caller().session())) continue;
            c.engine().forget(new dev.engram.engine.ForgetCommand(m.id(), zone, dev.engram.engine.ForgetAction.HARD));
        }
    }

}
