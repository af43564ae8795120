package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.CompressionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the beginning. Markdown with headings keeps every heading and its first line first, then
 * fills the rest of the budget top-down, so the outline survives; other text is cut at a sentence
 * or word boundary. Always applies: it is the last rung of the fallback ladder. With a
 * {@code _context_query}, the outline grows the sections that match it first (best first, as
 * memtomem-stm's section-aware truncation spends its budget by relevance), then the others top-down.
 */
public final class TruncateStrategy implements CompressionStrategy {
    @Override
    public CompressionMode mode() {
        return CompressionMode.TRUNCATE;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        String text = in.cleaned();
        String footer = Footers.original(in.key(), in.raw().length(), "truncated: kept %d of " + text.length() + " chars");
        int body = Math.max(0, in.budget() - footer.length() - 12);
        String kept = Sections.headings(text).size() >= 2 ? outline(text, body, in.contextQuery()) : null;
        if (kept == null) kept = cut(text, body);
        String out = kept + String.format(footer, kept.length());
        return Optional.of(new Compressed(out, mode(), text.isEmpty() ? 1.0 : Math.min(1.0, (double) kept.length() / text.length())));
    }

    static String outline(String text, int budget) {
        return outline(text, budget, null);
    }

    /**
     * Heading + first line of every section, then more of each section: those matching {@code query}
     * (null: none) first, best first, then in order; null if the skeleton alone is too long.
     */
    static String outline(String text, int budget, String query) {
        List<Section> sections = Sections.split(text);
        List<Integer> order = new ArrayList<>();
        boolean[] first = new boolean[sections.size()];
        if (query != null) {
            for (SectionRanker.Ranked r : SectionRanker.rank(query, text, sections)) {
                order.add(r.index());
                first[r.index()] = true;
            }
        }
        for (int i = 0; i < sections.size(); i++) if (!first[i]) order.add(i);
        List<String> parts = new ArrayList<>();
        int used = 0;
        for (Section s : sections) {
            String sk = skeleton(text.substring(s.start(), s.end()));
            parts.add(sk);
            used += sk.length();
        }
        if (used > budget) return null;
        for (int i : order) {
            Section s = sections.get(i);
            String full = text.substring(s.start(), s.end());
            int room = budget - used + parts.get(i).length();
            String grown = full.length() <= room ? full : cutAtLine(full, room, parts.get(i));
            used += grown.length() - parts.get(i).length();
            parts.set(i, grown);
        }
        return String.join("", parts);
    }

    private static String skeleton(String section) {
        String[] lines = section.split("\n", -1);
        StringBuilder sb = new StringBuilder(lines[0]).append('\n');
        for (int i = 1; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                sb.append(TextCut.clip(lines[i], 160)).append('\n');
                break;
            }
        }
        return sb.toString();
    }

    private static String cutAtLine(String full, int room, String atLeast) {
        if (room <= atLeast.length()) return atLeast;
        int nl = full.lastIndexOf('\n', room - 1);
        return nl + 1 > atLeast.length() ? full.substring(0, nl + 1) : atLeast;
    }

    static String cut(String text, int budget) {
        if (text.length() <= budget) return text;
        int floor = budget - budget / 5;
        int sentence = Math.max(text.lastIndexOf(". ", budget - 2), text.lastIndexOf(".\n", budget - 2));
        if (sentence >= floor) return text.substring(0, sentence + 1);
        int space = Math.max(text.lastIndexOf(' ', budget - 1), text.lastIndexOf('\n', budget - 1));
        if (space >= floor) return text.substring(0, space);
        return TextCut.head(text, budget);
    }
}
