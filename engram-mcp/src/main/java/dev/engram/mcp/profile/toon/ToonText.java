package dev.engram.mcp.profile.toon;

import dev.engram.engine.RecallMode;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.ResultCost;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;

/** toon-memory's text conventions (seed-systems §1.8): the layouts of recall and the names toon prints. */
final class ToonText {
    /** toon prices output as ceil(chars / 4) + words; the budgets cut by the same measure, in the normal layout. */
    static final ResultCost COST = cost(Layout.NORMAL, null, null);

    /**
     * The price of each entry as {@code layout} prints it with {@code links} (null: no links or edges printed) and
     * the ↳ line of {@code why} (null: none), so {@code budget_tokens} bounds what the agent reads. An entry kept in the normal layout also lengthens
     * the earlier entries it is joined to ({@code · edges: ->3}): that growth is part of its price. As toon's, the
     * cut keeps the entries in rank order and stops at the first that does not fit.
     */
    static ResultCost cost(Layout layout, ToonLinks links, Explainer why) {
        return new ResultCost() {
            @Override
            public int recalled(RecalledMemory result, RecallMode mode, int rank) {
                return tokens(mode == RecallMode.INDEX ? index(result, rank) : block(result, rank, layout, links, List.of(), why));
            }

            @Override
            public int added(RecalledMemory result, RecallMode mode, List<RecalledMemory> kept) {
                int rank = kept.size() + 1;
                if (mode == RecallMode.INDEX || layout != Layout.NORMAL || links == null) return recalled(result, mode, rank);
                List<Memory> shown = new java.util.ArrayList<>(kept.size() + 1);
                kept.forEach(k -> shown.add(k.memory()));
                shown.add(result.memory());
                int price = tokens(normal(result, rank, links.ranks(result.memory(), shown)) + (why == null ? "" : why.line(result)));
                List<Memory> before = shown.subList(0, kept.size());
                for (int i = 0; i < kept.size(); i++) {
                    RecalledMemory k = kept.get(i);
                    if (!links.joined(k.memory(), result.memory())) continue;
                    price += tokens(normal(k, i + 1, links.ranks(k.memory(), shown)))
                            - tokens(normal(k, i + 1, links.ranks(k.memory(), before)));
                }
                return price;
            }

            /** toon keeps its entries in rank order up to the first that does not fit: no shorter one from further down. */
            @Override
            public boolean skipsWhatDoesNotFit() {
                return false;
            }

            @Override
            public int briefingLine(Memory memory) {
                return tokens(line(memory));
            }
        };
    }

    /** The three layouts of ranked recall ({@code budget}); deep is toon's default. */
    enum Layout { TINY, NORMAL, DEEP }

    private ToonText() {
    }

    static int tokens(String text) {
        String t = text.strip();
        return (int) Math.ceil(text.length() / 4.0) + (t.isEmpty() ? 0 : t.split("\\s+").length);
    }

    /** toon's category for an Engram type: its own five, and {@code knowledge} for the kinds toon lacks. */
    static String category(MemoryType type) {
        return switch (type) {
            case DECISION -> "decision";
            case PATTERN -> "pattern";
            case WARNING -> "warning";
            case ERROR -> "bug";
            default -> "knowledge";
        };
    }

    static String date(Instant t) {
        return t == null ? "" : t.atZone(ZoneOffset.UTC).toLocalDate().toString();
    }

    static String status(Memory m) {
        return switch (m.status()) {
            case ACTIVE -> "active";
            case DRAFT -> "draft";
            default -> "obsolete";
        };
    }

    /** toon's pin mark: {@code 📌} at priority 1, {@code 📌3} above it, nothing when not pinned. */
    static String pin(Memory m) {
        int p = m.pinPriority();
        return p == 0 ? "" : p == 1 ? " 📌" : " 📌" + p;
    }

    /**
     * toon's deep layout: {@code [decision] key 📌2 (id)}, the content, {@code File: … | Tags: … | Date: …} (each
     * always, empty when unset), the entry's own links on a line of their own ({@code links: a, depends_on:b}, toon
     * prints them whoever they point at), then on that line what differs from the usual ({@code | origin: hook},
     * {@code | scope: src/api}, {@code | status: obsolete}), and the ↳ line when {@code why} is given (explain).
     */
    static String deep(RecalledMemory r, List<String> links, Explainer why) {
        Memory m = r.memory();
        StringBuilder b = new StringBuilder("[").append(category(m.type())).append("] ").append(m.key()).append(pin(m))
                .append(" (").append(m.id()).append(")\n");
        b.append(indent(m.content())).append('\n');
        b.append("  File: ").append(m.file() == null ? "" : m.file()).append(" | Tags: ").append(String.join(";", m.tags()))
                .append(" | Date: ").append(date(m.updatedAt()));
        if (!links.isEmpty()) b.append("\n  links: ").append(String.join(", ", links));
        if (m.origin() != Origin.AGENT) b.append(" | origin: ").append(m.origin().wireName());
        if (m.pathScope() != null) b.append(" | scope: ").append(m.pathScope());
        if (m.status() != MemoryStatus.ACTIVE) b.append(" | status: ").append(status(m));
        return b.append('\n').append(why == null ? "" : why.line(r)).toString();
    }

    /**
     * The ↳ line of toon's explain, in every layout: relevance, use, recency, toon's importance (recency and use, as
     * {@link ToonBriefing#importance}) and the entry's explicit importance and evidence level when it has them.
     */
    static final class Explainer {
        private final Map<String, String> evidence;
        private final LocalDate today;

        /** {@code evidence}: the zone's levels by memory id ({@link ToonEvidence#levels}). */
        Explainer(Map<String, String> evidence, LocalDate today) {
            this.evidence = evidence;
            this.today = today;
        }

        String line(RecalledMemory r) {
            return "  ↳ " + reason(r) + "\n";
        }

        String reason(RecalledMemory r) {
            Memory m = r.memory();
            StringBuilder b = new StringBuilder().append(Math.round(r.relevance() * 100)).append("% relevance");
            if (m.accessCount() > 0) b.append(" · used ").append(m.accessCount()).append("×");
            if (m.lastAccessedAt() != null) {
                long days = ChronoUnit.DAYS.between(m.lastAccessedAt().atZone(ZoneOffset.UTC).toLocalDate(), today);
                b.append(days <= 0 ? " · used today" : days == 1 ? " · used yesterday" : " · used " + days + "d ago");
            } else if (m.accessCount() == 0) {
                b.append(" · never used");
            }
            double importance = ToonBriefing.importance(m, today);
            b.append(importance >= 0.7 ? " · importance HIGH" : importance >= 0.4 ? " · importance MED" : " · importance LOW");
            if (m.importance() != null) b.append(" · explicit ").append(m.importance().name().toLowerCase(Locale.ROOT));
            String level = evidence.get(m.id());
            if (level != null && !level.isEmpty()) b.append(" · evidence ").append(level);
            return b.toString();
        }
    }

    /** toon's normal layout cuts an entry that only a link brought in to this many characters. */
    static final int NEIGHBOUR_SNIPPET = 90;

    /**
     * toon's normal layout: {@code [1] decision/key}, then the content, {@code · tags: a;b} and
     * {@code · edges: ->2, ->3} (the printed entries joined to this one, by rank) on one line; an entry that only
     * a link to a hit brought in shows its first 90 characters.
     */
    static String normal(RecalledMemory r, int rank, List<Integer> edges) {
        return normal(r.memory(), rank, r.linkedOnly() ? NEIGHBOUR_SNIPPET : 0, edges);
    }

    /**
     * One entry in toon's normal layout, its content cut to {@code snippet} characters and an ellipsis when longer
     * (0: the whole content, as for an entry that matched).
     */
    static String normal(Memory m, int rank, int snippet, List<Integer> edges) {
        String body = m.content();
        if (snippet > 0 && body.length() > snippet) body = trimEnd(body.substring(0, snippet)) + "…";
        StringBuilder b = new StringBuilder("[").append(rank).append("] ").append(category(m.type())).append('/').append(m.key())
                .append(pin(m)).append('\n').append(indent(body));
        if (!m.tags().isEmpty()) b.append(" · tags: ").append(String.join(";", m.tags()));
        if (!edges.isEmpty()) {
            b.append(" · edges: ");
            for (int i = 0; i < edges.size(); i++) b.append(i == 0 ? "->" : ", ->").append(edges.get(i));
        }
        return b.append('\n').toString();
    }

    /**
     * Memories in toon's normal layout, numbered in the order given, with the edges {@code links} joins among them
     * (null: no edges) and each one's content cut to {@code snippet.applyAsInt(m)} characters (0: whole): how
     * toon's context_brief prints its entries, with the same blocks as recall's normal layout.
     */
    static String normal(List<Memory> shown, ToIntFunction<Memory> snippet, ToonLinks links) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < shown.size(); i++) {
            Memory m = shown.get(i);
            b.append(normal(m, i + 1, snippet.applyAsInt(m), links == null ? List.of() : links.ranks(m, shown)));
            if (i < shown.size() - 1) b.append('\n');
        }
        return b.toString().stripTrailing();
    }

    /**
     * toon's tiny layout: {@code [1] decision/key 📌2} (the pin mark as in every layout) and the content up to its
     * first {@code \n}, cut at 80 characters with the cut's trailing blanks trimmed (JavaScript's trimEnd) before the
     * {@code …}. Only {@code \n} ends the line, as toon splits: a {@code \r} of CRLF content stays in it.
     */
    static String tiny(Memory m, int rank) {
        String content = m.content();
        int nl = content.indexOf('\n');
        String first = nl < 0 ? content : content.substring(0, nl);
        if (first.length() > 80) first = trimEnd(first.substring(0, 80)) + "…";
        return "[" + rank + "] " + category(m.type()) + "/" + m.key() + pin(m) + "\n  " + first + "\n";
    }

    /**
     * JavaScript's {@code String.prototype.trimEnd}: drops trailing white space and line terminators as ECMAScript
     * defines them (no-break spaces and the BOM included, the ASCII separators U+001C..U+001F not), where Java's
     * stripTrailing takes Character.isWhitespace's set; toon's cut text ends as toon's does.
     */
    static String trimEnd(String s) {
        int end = s.length();
        while (end > 0 && jsSpace(s.charAt(end - 1))) end--;
        return s.substring(0, end);
    }

    private static boolean jsSpace(char c) {
        return switch (c) {
            case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000',
                 '\uFEFF' -> true;
            default -> c >= '\u2000' && c <= '\u200A';
        };
    }

    /** {@code [1] use-zod (a1b2c3d4) 📌 · decision · 2026-07-10 · 100%}. */
    static String index(RecalledMemory r, int rank) {
        Memory m = r.memory();
        return "[" + rank + "] " + m.key() + " (" + m.id() + ")" + (m.pinPriority() > 0 ? " 📌" : "") + " · "
                + category(m.type()) + " · " + date(m.updatedAt()) + " · " + Math.round(r.relevance() * 100) + "%";
    }

    /** One line per memory, for lists: {@code [decision] key — first line}. */
    static String line(Memory m) {
        String first = m.content().lines().findFirst().orElse("");
        if (first.length() > 100) first = first.substring(0, 100) + "…";
        return "[" + category(m.type()) + "] " + m.key() + pin(m) + " — " + first;
    }

    /** The entries without links or edges (smart recall, as toon prints it), each with its ↳ line when {@code why} is given. */
    static String render(List<RecalledMemory> results, Layout layout, Explainer why) {
        return render(results, layout, null, why);
    }

    /** The entries in {@code layout}, with the links and edges of {@code links} (null: none) and the ↳ lines of {@code why} (null: none). */
    static String render(List<RecalledMemory> results, Layout layout, ToonLinks links, Explainer why) {
        List<Memory> shown = results.stream().map(RecalledMemory::memory).toList();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            List<Integer> edges = layout == Layout.NORMAL && links != null ? links.ranks(shown.get(i), shown) : List.of();
            b.append(block(results.get(i), i + 1, layout, links, edges, why));
            if (i < results.size() - 1) b.append('\n');
        }
        return b.toString().stripTrailing();
    }

    private static String block(RecalledMemory r, int rank, Layout layout, ToonLinks links, List<Integer> edges, Explainer why) {
        String reason = why == null ? "" : why.line(r);
        return switch (layout) {
            case DEEP -> deep(r, links == null ? List.of() : links.words(r.memory()), why);
            case NORMAL -> normal(r, rank, edges) + reason;
            case TINY -> tiny(r.memory(), rank) + reason;
        };
    }

    static String indent(String text) {
        return "  " + text.replace("\n", "\n  ");
    }
}
