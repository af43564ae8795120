package dev.engram.mcp.profile.toon;

import dev.engram.engine.ContextQuery;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecalledMemory;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * toon's context_brief (and the memory half of context_generate): its sections as toon prints them, joined by a
 * blank line, over Engram's store and recall.
 *
 * <ol>
 *   <li>{@code ## Memory (N entries) | 2 expired | 1 obsolete}, then the count per category and per origin, in
 *       data.toon's order (newest first); {@code Memory: empty} when there is nothing.</li>
 *   <li>With a task, {@code ## Relevant entries}: the entries recall finds for it, whole, then the rest by toon's
 *       importance cut to 80 characters, with the edges among them. Without one, {@code ## Top memories}: by
 *       toon's importance, whole, no edges. Both in recall's normal layout.</li>
 *   <li>{@code ## Established patterns}: up to 5, each cut to 120 characters.</li>
 *   <li>{@code ## Sessions}, as memory_sessions' briefing prints them.</li>
 *   <li>{@code ## Health}, only when an entry's TTL has expired.</li>
 * </ol>
 *
 * Where it departs from toon (docs/migrate-toon.md): pins come first, as in every list of this profile; drafts and
 * superseded entries stay out, as they stay out of recall (toon lists them here only); the entries section is bound
 * to 800 tokens; toon's other health warnings (a store near its 100-entry cap, links to missing keys) cannot arise
 * in Engram's store.
 */
final class ToonBriefing {
    /** toon's context_brief cuts the content of an entry that did not match the task to this many characters. */
    static final int SNIPPET = 80;
    /** toon lists at most this many patterns, each cut to this many characters. */
    static final int PATTERNS = 5, PATTERN_CHARS = 120;
    /**
     * The entries section stops before it passes this many tokens (toon's estimate), keeping at least the first
     * entry: toon has no such bound, but this profile's {@code limit} goes up to 100 whole entries and the briefing
     * is what a session-start hook puts in front of every conversation.
     */
    static final int BUDGET_TOKENS = ContextQuery.DEFAULT_BUDGET_TOKENS;

    private final ToonContext c;

    ToonBriefing(ToonContext c) {
        this.c = c;
    }

    /** The briefing for {@code task} (null or blank: the general one), at most {@code limit} entries. */
    String text(ToolArgs args, String task, int limit) {
        String t = task == null || task.isBlank() ? null : task.strip();
        Instant now = c.now();
        // toon's file holds what is not archived, whatever its status: the overview counts all of it
        List<Memory> all = c.all().stream().filter(m -> m.status() != MemoryStatus.ARCHIVED).toList();
        // what recall would show (c.active(), without reading the store a second time), private entries left out
        List<Memory> open = all.stream().filter(m -> m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now)
                && !m.tags().contains("private")).sorted(byImportance(now)).toList();
        long expired = all.stream().filter(m -> m.expiredAt(now)).count();

        List<String> sections = new ArrayList<>();
        sections.add(overview(all, expired));
        if (!open.isEmpty()) sections.add(t == null ? top(open, limit) : relevant(t, open, limit));
        patterns(open).ifPresent(sections::add);
        sections.add(c.sessions().brief(args));
        if (expired > 0) sections.add("## Health\n⚠️ " + expired + " entries with expired TTL (run memory_archive)");
        return String.join("\n\n", sections);
    }

    /** Pins first (this profile's rule), then toon's importance, the newest, the key: one order every run. */
    private static Comparator<Memory> byImportance(Instant now) {
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        return Comparator.comparingInt(Memory::pinPriority).reversed()
                .thenComparing(Comparator.comparingDouble((Memory m) -> importance(m, today)).reversed())
                .thenComparing(Memory::updatedAt, Comparator.reverseOrder())
                .thenComparing(Memory::key);
    }

    /**
     * toon's importance of an entry: 0.6 for recency (1 on the day of its date, falling to 0 after 30 days) plus
     * 0.4 for use (5 recalls or more count fully). Its date is the day it was last written, as in data.toon.
     */
    static double importance(Memory m, LocalDate today) {
        long days = ChronoUnit.DAYS.between(m.updatedAt().atZone(ZoneOffset.UTC).toLocalDate(), today);
        double recency = Math.min(1, Math.max(0, 30 - days) / 30.0);
        double use = Math.min(1, m.accessCount() / 5.0);
        return recency * 0.6 + use * 0.4;
    }

    private static String overview(List<Memory> all, long expired) {
        if (all.isEmpty()) return "Memory: empty";
        // toon counts in its file's order, where a new entry goes first
        List<Memory> newest = all.stream().sorted(Comparator.comparing(Memory::createdAt).reversed()).toList();
        long obsolete = all.stream().filter(m -> ToonText.status(m).equals("obsolete")).count();
        return "## Memory (" + all.size() + " entries)" + (expired > 0 ? " | " + expired + " expired" : "")
                + (obsolete > 0 ? " | " + obsolete + " obsolete" : "")
                + "\n" + counts(newest, m -> ToonText.category(m.type()))
                + "\nOrigin: " + counts(newest, m -> m.origin().wireName());
    }

    /** {@code knowledge:3 pattern:1}: how many of {@code ms} have each name, in the order the names first appear. */
    private static String counts(List<Memory> ms, Function<Memory, String> name) {
        Map<String, Integer> n = new LinkedHashMap<>();
        ms.forEach(m -> n.merge(name.apply(m), 1, Integer::sum));
        return n.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** The general briefing's entries: the most important, whole, and (as toon) no edges among them. */
    private String top(List<Memory> open, int limit) {
        return "## Top memories\n" + bounded(open.stream().limit(limit).toList(), m -> 0, null);
    }

    /**
     * A task's entries: what recall finds for the task first, in recall's order and whole (toon's seeds), then the
     * rest by importance up to {@code limit}, cut to 80 characters as toon cuts what did not match; numbered and
     * joined by toon's edges among them. An entry recall brought in only by a link is not a seed.
     */
    private String relevant(String task, List<Memory> open, int limit) {
        Map<String, Memory> byId = new LinkedHashMap<>();
        open.forEach(m -> byId.put(m.id(), m));
        Set<String> seeds = new LinkedHashSet<>();
        List<Memory> picked = new ArrayList<>();
        for (RecalledMemory r : recall(task, limit)) {
            Memory m = byId.get(r.memory().id());
            if (!r.linkedOnly() && m != null && seeds.add(m.id())) picked.add(m);
        }
        for (Memory m : open) {
            if (picked.size() >= limit) break;
            if (!seeds.contains(m.id())) picked.add(m);
        }
        ToIntFunction<Memory> snippet = m -> seeds.contains(m.id()) ? 0 : SNIPPET;
        return "## Relevant entries\n" + bounded(picked, snippet, new ToonLinks(c.engine(), c.zone(), true));
    }

    private List<RecalledMemory> recall(String task, int limit) {
        return c.engine().recall(RecallQuery.builder(task).zone(c.zone()).limit(limit).mode(RecallMode.RANKED).build(),
                ToonText.COST).results();
    }

    /**
     * {@code shown} in the normal layout, dropping entries from the end until the section fits
     * {@link #BUDGET_TOKENS} (the first always stays), and a line saying how many were left out. Each cut prints
     * the rest again, because an entry's edges point only at entries still printed.
     */
    private static String bounded(List<Memory> shown, ToIntFunction<Memory> snippet, ToonLinks links) {
        int kept = shown.size();
        String text = ToonText.normal(shown, snippet, links);
        while (kept > 1 && ToonText.tokens(text) > BUDGET_TOKENS) {
            text = ToonText.normal(shown.subList(0, --kept), snippet, links);
        }
        if (kept == shown.size()) return text;
        return text + "\n\n(" + (shown.size() - kept) + " more left out to stay within " + BUDGET_TOKENS
                + " tokens: memory_recall for more)";
    }

    private static Optional<String> patterns(List<Memory> open) {
        List<String> lines = open.stream().filter(m -> m.type() == MemoryType.PATTERN).limit(PATTERNS)
                .map(m -> "- **" + m.key() + "**: " + m.content().substring(0, Math.min(PATTERN_CHARS, m.content().length())))
                .toList();
        return lines.isEmpty() ? Optional.empty() : Optional.of("## Established patterns\n" + String.join("\n", lines));
    }
}
