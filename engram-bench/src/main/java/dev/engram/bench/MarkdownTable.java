package dev.engram.bench;

import java.util.ArrayList;
import java.util.List;

/** A GitHub-flavoured markdown table with padded columns, so it also reads well on a terminal. */
final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    MarkdownTable row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + header.size() + " columns");
        }
        List<String> row = new ArrayList<>(cells.length);
        for (Object c : cells) row.add(String.valueOf(c).replace("|", "\\|"));
        rows.add(row);
        return this;
    }

    int rowCount() {
        return rows.size();
    }

    String render() {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = Math.max(3, header.get(i).length());
            for (List<String> r : rows) width[i] = Math.max(width[i], r.get(i).length());
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        sb.append('|');
        for (int w : width) sb.append(' ').append("-".repeat(w)).append(" |");
        sb.append('\n');
        for (List<String> r : rows) line(sb, r, width);
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells, int[] width) {
        sb.append('|');
        for (int i = 0; i < width.length; i++) {
            sb.append(' ').append(cells.get(i)).append(" ".repeat(width[i] - cells.get(i).length())).append(" |");
        }
        sb.append('\n');
    }
}
