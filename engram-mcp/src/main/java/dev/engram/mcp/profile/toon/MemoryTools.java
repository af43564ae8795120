package dev.engram.mcp.profile.toon;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Budget;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.ForgetResult;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.LinkSpec;
import dev.engram.engine.PinCommand;
import dev.engram.engine.RecallBias;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** toon's core memory tools: remember, recall, search, smart recall, suggest, forget, pin, unpin, tag, checkpoint. */
final class MemoryTools {
    static final List<String> CATEGORIES = List.of("decision", "pattern", "bug", "knowledge", "warning");
    private static final List<String> IMPORTANCE = List.of("critical", "high", "medium", "low");
    private final ToonContext c;

    MemoryTools(ToonContext c) {
        this.c = c;
    }

    ToonTool remember() {
        var schema = JsonSchema.input()
                .choice("category", "Kind of memory", CATEGORIES)
                .string("key", "Unique kebab-case key; the same key updates the entry (id kept)", "use-zod")
                .string("content", "What to remember, self-contained", "Use Zod for request validation")
                .string("file", "Related file path", "src/types.ts")
                .string("tags", "Tags separated by ';' (inferred from the content when empty)", "validation;api")
                .string("ttl", "Expiry: 7d or YYYY-MM-DD", "7d")
                .string("links", "Links to other keys, space or ';' separated, optionally type:key", "depends_on:zod-schemas")
                .string("path_scope", "Glob where this applies", "src/api/**")
                .choice("origin", "Who asserted it (default agent)", List.of("agent", "human", "inferred"))
                .choice("importance", "Explicit importance (omit for automatic)", IMPORTANCE)
                .required("category", "key", "content");
        return new ToonTool(ToonTool.define("memory_remember", "Save a decision, pattern, bug, knowledge or warning; "
                + "the same key updates the existing entry.", schema, ToonTool.hints(false, false, true)), this::remember);
    }

    /** toon's keys are any text; Engram's are lowercase ASCII: each reference as Engram holds it ({@link ToonData#engramRef}). */
    private static List<String> refs(List<String> words) {
        return words == null ? null : words.stream().map(ToonData::engramRef).toList();
    }

    private String remember(ToolArgs args) {
        MemoryType type = category(args.text("category"));
        List<String> notes = new ArrayList<>();
        String given = args.text("key").strip();
        String key = ToonData.engramRef(given);
        if (!key.equals(given)) notes.add("🔑 Key '" + ToonData.shortKey(given) + "' is kept as '" + key + "' (Engram keys are lowercase ASCII; either finds it)");
        List<LinkSpec> links = new ArrayList<>();
        List<String> linkWords = args.words("links");
        for (String word : linkWords == null ? List.<String>of() : linkWords) {
            LinkSpec spec = link(word);
            if (c.find(spec.target()).isPresent()) links.add(spec);
            else notes.add("🔗 Not linked: no entry '" + spec.target() + "' (link again once it exists)");
        }
        String file = args.textOr("file");
        RememberCommand cmd = new RememberCommand(args.text("content"), key, type, args.list("tags"),
                c.zone(), args.choice("importance", Importance::parse), blank(args.textOr("ttl")), links,
                blank(file), blank(args.textOr("path_scope")), args.choice("origin", Origin::parse),
                true, args.caller().session(), args.caller().branch(), false, null);
        RememberResult r = c.engine().remember(cmd);
        Memory m = r.memory();
        StringBuilder out = new StringBuilder(r.outcome() == RememberResult.Outcome.CREATED ? "🧠 Saved: " : "🧠 Updated: ")
                .append(ToonText.category(m.type())).append('/').append(m.key()).append(" (").append(m.id()).append(")\n")
                .append(m.content());
        if (m.expiresAt() != null) out.append("\n⏰ TTL: ").append(ToonText.date(m.expiresAt()));
        if (!r.inferredTags().isEmpty()) out.append("\n🏷️ Inferred tags: ").append(String.join(", ", r.inferredTags()));
        if (r.outcome() != RememberResult.Outcome.CREATED) out.append("\n🔀 Merged into the existing entry (id kept)");
        String evidence = r.conflicts().isEmpty() ? c.evidence(file) : "conflict";
        if (!evidence.isEmpty()) out.append("\n🔎 Evidence: ").append(evidence);
        // kept as toon's 20th field; an update merges as toon's mergeEntries does: a conflict on either side stays,
        // else the new level, else the one recorded before
        String before = r.outcome() == RememberResult.Outcome.CREATED ? ""
                : ToonEvidence.read(c.engine(), c.zone()).getOrDefault(m.id(), "");
        String kept = before.equals("conflict") || evidence.equals("conflict") ? "conflict" : evidence.isEmpty() ? before : evidence;
        ToonEvidence.put(c.engine(), c.zone(), Map.of(m.id(), kept));
        if (!r.conflicts().isEmpty()) {
            // toon's contradiction-on-write block: the entry is saved, the agent is told what to re-check
            out.append("\n\n⚠️ Potential CONTRADICTION with existing memory:");
            for (RememberResult.Conflict k : r.conflicts()) {
                out.append("\n  ⚠️ [").append(ToonText.category(k.type())).append("] ").append(k.key()).append(" (")
                        .append(Math.round(k.similarity() * 100)).append("% overlap) — ").append(k.detail());
            }
            out.append("\n  → The new claim was saved but flagged (evidence: conflict). Re-check before trusting it over the existing entry.");
        }
        if (r.nearDuplicate() != null) {
            out.append("\n♊ Near-duplicate of ").append(r.nearDuplicate().key()).append(" (")
                    .append(Math.round(r.nearDuplicate().similarity() * 100)).append("% similar)");
        }
        notes.forEach(n -> out.append('\n').append(n));
        out.append(related(m));
        return out.toString();
    }

    /**
     * toon's "🔗 Related entries" after a save: up to three other entries the new one's key, content and tags match,
     * so the agent can link them. A look, not a read: their access counts stay as they are.
     */
    private String related(Memory saved) {
        String words = saved.key().replace('-', ' ') + " " + saved.content() + " " + String.join(" ", saved.tags());
        List<RecalledMemory> found;
        try {
            found = c.engine().recall(RecallQuery.builder(words.length() > 2_000 ? words.substring(0, 2_000) : words).zone(c.zone())
                    .limit(4).mode(RecallMode.RANKED).hops(1).peek(true).build(), ToonText.COST).results();
        } catch (RuntimeException e) {
            return ""; // an aside: the save is what was asked for
        }
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (RecalledMemory r : found) {
            Memory m = r.memory();
            if (m.id().equals(saved.id()) || r.relevance() <= 0 || n == 3) continue;
            String content = m.content().length() > 80 ? m.content().substring(0, 80) : m.content();
            b.append("\n  [").append(ToonText.category(m.type())).append("] ").append(m.key()).append(" — ").append(content);
            n++;
        }
        return n == 0 ? "" : "\n\n🔗 Related entries:" + b;
    }

    /** One of toon's five categories (any case), as its schema lists them; anything else is refused with the five. */
    static MemoryType category(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (!CATEGORIES.contains(v)) {
            throw new InvalidArgumentException("category", MemoryRules.shown(value) + " is not a category; send one of "
                    + String.join(", ", CATEGORIES));
        }
        return TypeAliases.TOON_MEMORY.parse("category", v);
    }

    static LinkSpec link(String word) {
        int colon = word.indexOf(':');
        if (colon > 0) {
            String type = word.substring(0, colon);
            String target = word.substring(colon + 1);
            if (type.equals("related")) return new LinkSpec(EdgeType.RELATED, ToonData.engramRef(target));
            return new LinkSpec(EdgeType.parse("links", type), ToonData.engramRef(target));
        }
        return new LinkSpec(EdgeType.RELATED, ToonData.engramRef(word));
    }

    ToonTool recall() {
        JsonSchema schema = recallSchema(false)
                .choice("mode", "flat (ranked), graph (ranked with linked entries) or index (one line per entry)", List.of("flat", "graph", "index"))
                .string("ids", "Fetch these ids or keys in this order (comma, space or ';' separated; at most 1000); overrides mode", "use-zod,a1b2c3d4")
                .string("category", "Only this category", "decision")
                .string("from_date", "Entries dated on or after (YYYY-MM-DD)", "2026-07-01");
        return new ToonTool(ToonTool.define("memory_recall", "Recall memories for a query: ranked entries (deep layout by "
                + "default), an index of one line each, or the entries named by ids.", schema,
                ToonTool.hints(false, false, true)), args -> recall(args, null, true));
    }

    ToonTool search() {
        JsonSchema schema = recallSchema(true)
                .choice("mode", "flat or graph", List.of("flat", "graph"))
                .string("category", "Only this category", "decision")
                .string("tags", "Entries carrying all these tags (';' separated)", "api;validation")
                .string("from_date", "Entries dated on or after: YYYY-MM-DD or relative such as 7d", "7d")
                .required("query");
        return new ToonTool(ToonTool.define("memory_search", "Search memories with filters: category, tags (all must "
                + "match), dates, path scope.", schema, ToonTool.hints(false, false, true)), args -> recall(args, args.list("tags"), false));
    }

    private static JsonSchema recallSchema(boolean search) {
        return JsonSchema.input()
                .string("query", "What you are looking for", "validation")
                .string("to_date", "Entries dated on or before (YYYY-MM-DD)", "2026-07-31")
                .integer("hops", "Graph hops (1-2)", 1, 2, 1)
                .integer("limit", "How many entries (default 6; 15 in index mode)", 1, 100, 6)
                .bool("compact", "Shorter entries (the normal layout)")
                .choice("budget", "Layout: tiny, normal or deep (default deep; overrides compact)", List.of("deep", "normal", "tiny"))
                .integer("budget_tokens", "Stop adding entries past this many tokens (0 = no limit)", 0, 100_000, 0)
                .bool("explain", "Say why each entry was chosen")
                .choice("bias", "session: prefer entries about files this session touched", List.of("none", "session"))
                .string("path_scope", "Only entries whose file or scope match this glob", "src/**")
                .bool("rrf", "Reciprocal-rank fusion instead of the linear score")
                .string("as_of", "Recall as memory stood on this date (superseded entries included)", "2026-07-05");
    }

    private String recall(ToolArgs args, List<String> tags, boolean hasIds) {
        // memory_search needs its query; memory_recall lists the top entries without one, as toon does
        String query = hasIds ? (args.textOr("query") == null ? "" : args.textOr("query").strip()) : args.text("query").strip();
        String mode = blank(args.textOr("mode"));
        List<String> modes = hasIds ? List.of("flat", "graph", "index") : List.of("flat", "graph");
        if (mode != null && !modes.contains(mode)) {
            throw new InvalidArgumentException("mode", MemoryRules.shown(mode) + " is not a mode of " + args.tool() + "; send "
                    + String.join(", ", modes));
        }
        int hops = args.intOr("hops", 1, 1, 2);
        RecallBias bias = bias(args, false);
        List<String> ids = hasIds ? refs(args.words("ids")) : null;
        String category = args.textOr("category");
        Set<MemoryType> types = category == null || category.isBlank() ? null : Set.of(category(category));
        ToonText.Layout layout = layout(args);
        boolean index = "index".equals(mode) && (ids == null || ids.isEmpty());
        Integer limitArg = args.intOr("limit", 1, 100);
        int limit = limitArg != null ? limitArg : index ? 15 : 6;
        Integer tokens = args.intOr("budget_tokens", 0, 100_000);
        if (tokens != null && tokens > 0 && tokens < 20) tokens = 20;
        RecallQuery.Builder q = RecallQuery.builder(query).zone(c.zone()).types(types).tags(tags)
                .from(args.textOr("from_date")).to(args.textOr("to_date")).path(blank(args.textOr("path_scope")))
                .asOf(blank(args.textOr("as_of"))).explain(args.bool("explain"))
                .budgetTokens(tokens == null || tokens == 0 ? null : tokens).budget(Budget.DEEP)
                .rankFusion(args.bool("rrf")).bias(bias);
        boolean byIds = ids != null && !ids.isEmpty();
        if (byIds) {
            q.mode(RecallMode.IDS).ids(ids);
        } else if (index || query.isEmpty()) {
            // toon lists the top entries when the query is empty; Engram's index mode does the listing
            q.mode(RecallMode.INDEX).limit(limit);
        } else {
            // toon walks the links from its matches in every mode, hops deep (1 by default)
            q.mode("graph".equals(mode) ? RecallMode.HYBRID : RecallMode.RANKED).limit(limit).hops(hops);
        }
        // toon prints the edges among a ranked recall's entries in the normal layout, not among entries fetched by ids
        ToonLinks links = new ToonLinks(c.engine(), c.zone(), !byIds);
        ToonText.Explainer why = explainer(args);
        RecallResult result = c.engine().recall(q.build(), ToonText.cost(layout, links, why));
        List<RecalledMemory> found = result.results();
        if (found.isEmpty()) {
            if (result.budgetLimited()) return tooSmall(tokens);
            // toon's own words, which agents' instructions may test for
            return byIds ? "No entries found for ids: " + args.text("ids").strip() : "No results found for \"" + query + "\"";
        }
        if (index) {
            StringBuilder b = new StringBuilder("📇 Memory index (").append(found.size()).append(" entries):\n\n");
            for (int i = 0; i < found.size(); i++) b.append(ToonText.index(found.get(i), i + 1)).append('\n');
            b.append("\nFetch full entries with memory_recall ids=\"<id1>,<id2>\" or search with mode:\"flat\".");
            return b.toString();
        }
        String rendered = ToonText.render(found, layout, links, why);
        return byIds ? "Fetched " + found.size() + (found.size() == 1 ? " entry" : " entries") + ":\n\n" + rendered : rendered;
    }

    /** toon's explain: a ↳ line under each entry, saying why it was chosen; null without {@code explain}. */
    private ToonText.Explainer explainer(ToolArgs args) {
        return args.bool("explain")
                ? new ToonText.Explainer(ToonEvidence.levels(c.engine(), c.zone()), java.time.LocalDate.now(java.time.ZoneOffset.UTC))
                : null;
    }

    /** toon's session factor (an entry about a file this session touched), script, folder and drift amounts. */
    static final double SESSION_FACTOR = 1.15, SAME_SCRIPT = 0.1, FOLDER = 0.05, DRIFT = -0.3;

    /**
     * toon's biases as the engine applies them: evidence always (conflict +0.15, verified +0.03, unverified
     * -0.02); with {@code bias: "session"} the session's files ×1.15; and for smart recall ({@code smart})
     * toon's language-family (+0.1) and working-folder (+0.05) boosts and its drift penalty (-0.3 when the
     * entry's file changed after the day the entry was written). A bias other than none or session is refused.
     */
    private RecallBias bias(ToolArgs args, boolean smart) {
        String bias = args.textOr("bias");
        if (bias != null && !bias.isBlank() && !List.of("none", "session").contains(bias.strip())) {
            throw new InvalidArgumentException("bias", "must be none or session, got " + MemoryRules.shown(bias));
        }
        Map<String, String> evidence = ToonEvidence.levels(c.engine(), c.zone());
        RecallBias out = RecallBias.NONE.withNudge(m -> {
            String level = evidence.get(m.id());
            boolean drifted = smart && c.drifted(m);
            if (level == null && !drifted) return null;
            double value = (level == null ? 0 : ToonEvidence.BOOST.get(level)) + (drifted ? DRIFT : 0);
            String reason = (level == null ? "" : "evidence " + level) + (level != null && drifted ? ", " : "")
                    + (drifted ? "its file changed since" : "");
            return new RecallBias.Nudge(value, reason);
        });
        if (bias != null && bias.strip().equals("session")) out = out.withFiles(c.sessions().ownFiles(args), SESSION_FACTOR);
        return smart ? out.withSameScript(SAME_SCRIPT).withFolder(".", FOLDER) : out;
    }

    private static ToonText.Layout layout(ToolArgs args) {
        String budget = args.textOr("budget");
        if (budget != null && !budget.isBlank()) {
            return switch (budget.strip()) {
                case "tiny" -> ToonText.Layout.TINY;
                case "normal" -> ToonText.Layout.NORMAL;
                case "deep" -> ToonText.Layout.DEEP;
                default -> throw new InvalidArgumentException("budget", "must be tiny, normal or deep, got " + MemoryRules.shown(budget));
            };
        }
        return args.bool("compact") ? ToonText.Layout.NORMAL : ToonText.Layout.DEEP;
    }

    ToonTool smartRecall() {
        var schema = JsonSchema.input()
                .string("intent", "What you are about to do", "add validation to the signup endpoint")
                .integer("limit", "How many entries (default 8)", 1, 100, 8)
                .string("category", "Only this category", "decision")
                .choice("bias", "session: prefer entries about files this session touched", List.of("none", "session"))
                .bool("rrf", "Reciprocal-rank fusion instead of the linear score")
                .integer("budget_tokens", "Stop adding entries past this many tokens (0 = no limit)", 0, 100_000, 0)
                .bool("explain", "Say why each entry was chosen")
                .required("intent");
        return new ToonTool(ToonTool.define("memory_smart_recall", "One-call recall for an intent: the most useful "
                + "entries in the compact layout.", schema, ToonTool.hints(true, false, true)), args -> {
            String category = args.textOr("category");
            Integer tokens = args.intOr("budget_tokens", 0, 100_000);
            RecallQuery q = RecallQuery.builder(args.text("intent")).zone(c.zone()).limit(args.intOr("limit", 8, 1, 100))
                    .types(category == null || category.isBlank() ? null : Set.of(category(category)))
                    .budgetTokens(tokens == null || tokens == 0 ? null : Math.max(20, tokens)).explain(args.bool("explain"))
                    .mode(RecallMode.RANKED).rankFusion(args.bool("rrf")).bias(bias(args, true)).build();
            ToonText.Explainer why = explainer(args);
            RecallResult result = c.engine().recall(q, ToonText.cost(ToonText.Layout.NORMAL, null, why));
            if (result.results().isEmpty()) {
                return result.budgetLimited() ? tooSmall(q.budgetTokens()) : "No results found for \"" + args.text("intent").strip() + "\"";
            }
            return ToonText.render(result.results(), ToonText.Layout.NORMAL, why);
        });
    }

    /**
     * When the best entry alone is over {@code budget_tokens}: toon prints it anyway, Engram stays within the
     * budget and says so (an empty answer would read as "nothing matched").
     */
    static String tooSmall(int budgetTokens) {
        return "No entry fits within budget_tokens " + budgetTokens + ": the best match alone takes more. Raise budget_tokens, "
                + "or ask for budget \"tiny\" (one line each) or mode \"index\".";
    }

    ToonTool suggest() {
        var schema = JsonSchema.input()
                .string("context", "What you are working on", "validation types")
                .integer("limit", "How many suggestions (default 5)", 1, 100, 5)
                .required("context");
        return new ToonTool(ToonTool.define("memory_suggest", "Cheap related-entry finder for a piece of context.",
                schema, ToonTool.hints(true, false, true)), args -> {
            RecallQuery q = RecallQuery.builder(args.text("context")).zone(c.zone()).limit(args.intOr("limit", 5, 1, 100))
                    .mode(RecallMode.RANKED).build();
            // a pinned entry comes with every recall; here only what the context matches is related
            List<RecalledMemory> found = c.engine().recall(q, ToonText.COST).results().stream()
                    .filter(r -> !r.memory().pinned() || r.relevance() > 0).toList();
            if (found.isEmpty()) return "No related entries found for \"" + args.text("context").strip() + "\"";
            StringBuilder b = new StringBuilder("💡 Related entries (" + found.size() + "):");
            for (RecalledMemory r : found) b.append("\n  ").append(ToonText.line(r.memory()));
            return b.toString();
        });
    }

    ToonTool forget() {
        var schema = JsonSchema.input()
                .string("key", "Key or id of the entry", "use-joi")
                .choice("action", "soft (obsolete, default), hard (delete), restore, supersede", List.of("soft", "hard", "restore", "supersede"))
                .string("new_key", "supersede: the entry that replaces this one", "use-zod")
                .string("reason", "supersede: why", "Zod is better")
                .required("key");
        return new ToonTool(ToonTool.define("memory_forget", "Forget an entry: soft (obsolete, reversible), hard "
                + "(delete), restore, or supersede by new_key.", schema, ToonTool.hints(false, true, false)), this::forget);
    }

    private String forget(ToolArgs args) {
        String ref = ToonData.engramRef(args.text("key"));
        String action = args.textOr("action") == null || args.textOr("action").isBlank() ? "soft" : args.textOr("action").strip();
        return switch (action) {
            case "soft" -> {
                ForgetResult r = c.engine().forget(new ForgetCommand(ref, c.zone(), ForgetAction.SOFT));
                yield "🗑️ " + describe(r, ref) + " marked obsolete (hidden from recall; action 'restore' brings it back)";
            }
            case "hard" -> {
                ForgetResult r = c.engine().forget(new ForgetCommand(ref, c.zone(), ForgetAction.HARD));
                yield "🗑️ Deleted: " + describe(r, ref) + " (Engram keeps it restorable for 7 days with action 'restore')";
            }
            case "restore" -> {
                ForgetResult r = c.engine().forget(new ForgetCommand(ref, c.zone(), ForgetAction.RESTORE));
                yield "♻️ " + describe(r, ref) + " restored (active)";
            }
            case "supersede" -> supersede(ref, args.textOr("new_key"), args.textOr("reason"));
            default -> throw new InvalidArgumentException("action", "must be soft, hard, restore or supersede, got " + MemoryRules.shown(action));
        };
    }

    private static String describe(ForgetResult r, String ref) {
        Memory m = r.memory();
        return m == null ? ref : m.key() + " (" + m.id() + ")";
    }

    private String supersede(String ref, String newKey, String reason) {
        Memory old = c.find(ref).orElseThrow(() -> NotFoundException.memory(ref, c.zone()));
        String date = ToonText.date(c.now());
        // the replacement is looked up before anything is written: an unknown new_key leaves the entry as it was
        Memory replacement = newKey == null || newKey.isBlank() ? null : c.find(newKey).orElseThrow(() -> new NotFoundException(
                "new_key " + MemoryRules.shown(newKey.strip()) + " names no entry; remember the replacement first, then supersede"));
        String content = reason == null || reason.isBlank() ? null : old.content() + "\n⏳ Superseded (" + date + "): " + reason.strip();
        // the step that may refuse goes first (the link, or archiving an entry already archived), so a refusal writes nothing
        if (replacement != null) {
            c.engine().link(new LinkCommand(replacement.id(), old.id(), EdgeType.SUPERSEDES, c.zone(), false));
            if (content != null) c.engine().amend(new AmendCommand(old.id(), c.zone(), content, null, null));
            return "⏳ " + old.key() + " superseded by " + replacement.key() + " (" + date + "); recall with as_of " + date + " still finds it";
        }
        c.engine().forget(new ForgetCommand(old.id(), c.zone(), ForgetAction.SOFT));
        Set<String> tags = new LinkedHashSet<>(old.tags());
        tags.add("superseded");
        c.engine().amend(new AmendCommand(old.id(), c.zone(), content, List.copyOf(tags), null));
        return "⏳ " + old.key() + " superseded (" + date + "): obsolete and tagged superseded; action 'restore' brings it back";
    }

    ToonTool pin() {
        var schema = JsonSchema.input()
                .string("key", "Key or id of the entry", "use-zod")
                .integer("priority", "1-5 (default 1); pinned entries lead every recall", 1, 5, 1)
                .required("key");
        return new ToonTool(ToonTool.define("memory_pin", "Pin an entry: it leads every recall.", schema,
                ToonTool.hints(false, false, true)), args -> {
            int priority = args.intOr("priority", 1, 1, 5);
            Memory m = c.engine().pin(new PinCommand(ToonData.engramRef(args.text("key")), c.zone(), priority));
            return "📌 Pinned: " + m.key() + " (" + m.id() + ") priority " + priority;
        });
    }

    ToonTool unpin() {
        var schema = JsonSchema.input().string("key", "Key or id of the entry", "use-zod").required("key");
        return new ToonTool(ToonTool.define("memory_unpin", "Unpin an entry.", schema, ToonTool.hints(false, false, true)), args -> {
            Memory m = c.engine().pin(new PinCommand(ToonData.engramRef(args.text("key")), c.zone(), 0));
            return "📍 Unpinned: " + m.key() + " (" + m.id() + ")";
        });
    }

    ToonTool tag() {
        var schema = JsonSchema.input()
                .choice("action", "add, remove or set", List.of("add", "remove", "set"))
                .string("tags", "Tags separated by ';'", "api;validation")
                .string("ids", "Keys or ids, comma, space or ';' separated; at most 1000", "use-zod,zod-schemas")
                .required("action", "tags", "ids");
        return new ToonTool(ToonTool.define("memory_tag", "Add, remove or set tags on several entries at once.", schema,
                ToonTool.hints(false, false, true)), args -> {
            String action = args.text("action").strip();
            if (!List.of("add", "remove", "set").contains(action)) {
                throw new InvalidArgumentException("action", "must be add, remove or set, got " + MemoryRules.shown(action));
            }
            List<String> tags = args.list("tags");
            if (tags == null) throw new InvalidArgumentException("tags", "is required: send tags separated by ';', e.g. \"api;validation\"");
            List<String> refs = refs(args.words("ids"));
            if (refs == null || refs.isEmpty()) {
                throw new InvalidArgumentException("ids", "is required: send keys or ids separated by commas, e.g. \"use-zod,zod-schemas\"");
            }
            List<Memory> targets = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String ref : refs) c.find(ref).ifPresentOrElse(targets::add, () -> missing.add(ref));
            if (targets.isEmpty()) {
                String named = String.join(", ", missing.stream().limit(5).map(MemoryRules::clipped).toList());
                throw new NotFoundException("none of ids names an entry: " + named + (missing.size() > 5 ? " and " + (missing.size() - 5) + " more" : ""));
            }
            StringBuilder b = new StringBuilder();
            for (Memory m : targets) {
                Set<String> next = new LinkedHashSet<>(action.equals("set") ? List.of() : m.tags());
                if (action.equals("remove")) tags.forEach(next::remove);
                else next.addAll(tags);
                c.engine().amend(new AmendCommand(m.id(), c.zone(), null, List.copyOf(next), null));
                b.append("\n  ").append(m.key()).append(": ").append(next.isEmpty() ? "(no tags)" : String.join(";", next));
            }
            String head = "🏷️ Tags " + (action.equals("add") ? "added to" : action.equals("remove") ? "removed from" : "set on")
                    + " " + targets.size() + " entr" + (targets.size() == 1 ? "y" : "ies") + ":";
            return head + b + (missing.isEmpty() ? "" : "\n  not found: " + String.join(", ", missing));
        });
    }

    ToonTool checkpoint() {
        var schema = JsonSchema.input().string("note", "What you were doing", "halfway through the auth refactor");
        return new ToonTool(ToonTool.define("memory_checkpoint", "Save a checkpoint of this session (7-day TTL): date, "
                + "note, branch and up to 10 files it touched.", schema, ToonTool.hints(false, false, true)), args -> {
            String session = args.caller().session();
            // the session's id as toon keys it: 8 hex characters of the caller's own session id
            String id = String.format("%08x", c.sessions().selfId(args).hashCode());
            // toon's checkpoint lists up to 10 of the files this session touched (its heartbeat's files)
            ToonCheckpoint.Saved saved = ToonCheckpoint.save(c.engine(), c.zone(), c.now(), id, session, args.caller().branch(),
                    args.textOr("note"), c.sessions().ownFiles(args));
            return "📍 Checkpoint saved: " + saved.memory().key() + " (" + saved.memory().id() + "), expires "
                    + ToonText.date(saved.memory().expiresAt()) + "\n" + saved.content();
        });
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
