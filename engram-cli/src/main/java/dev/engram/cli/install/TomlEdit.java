package dev.engram.cli.install;

import java.util.List;

/**
 * Adds one whole {@code [table]} to a TOML file and takes it out again as text: appended after a blank
 * line, and removed together with that separator, so a file the installer only added to comes back
 * byte for byte. A table defined some other way (dotted keys, an inline table) is not edited.
 */
public final class TomlEdit {
    /** What an addition did: the table, its exact text, the separator written before it, and the text it replaced. */
    public record Placement(String table, String block, String prefix, String replaced) {
    }

    private TomlEdit() {
    }

    /** The text with the table in it, and how it was placed. */
    public record Added(String text, Placement placement) {
    }

    /** The new text and its placement, or null when the table is already there with exactly this text. */
    public static Added add(String text, String table, String block) throws JsonDocument.SyntaxError, JsonEdit.Conflict {
        block = JsonEdit.newlines(text, block);
        TomlTables.Scan scan = TomlTables.scan(text);
        TomlTables.Table existing = find(scan, table);
        if (existing != null) {
            String now = text.substring(existing.start(), existing.end());
            if (now.strip().equals(block.strip())) return null;
            String kept = now.substring(now.stripTrailing().length()); // the blank lines before the next table stay
            return new Added(text.substring(0, existing.start()) + block.stripTrailing() + kept + text.substring(existing.end()),
                    new Placement(table, block, "", now.stripTrailing()));
        }
        for (String key : scan.keys()) {
            if (key.equals(table) || key.startsWith(table + ".")) {
                throw new JsonEdit.Conflict("it already defines " + table + " as keys outside a [" + table + "] table");
            }
        }
        for (String key : scan.values()) {
            // mcp_servers = { other = {…} } (or = {}): a [mcp_servers.engram] table after it would define mcp_servers twice
            if (table.startsWith(key + ".")) {
                throw new JsonEdit.Conflict(key + " is written as an inline table (" + key + " = {…}), which TOML does not let a ["
                        + table + "] table add to; write each server as its own [" + key + ".NAME] table, or add engram to it by hand");
            }
        }
        String prefix = JsonEdit.newlines(text, text.isEmpty() ? "" : text.endsWith("\n") ? "\n" : "\n\n");
        return new Added(text + prefix + block, new Placement(table, block, prefix, null));
    }

    /**
     * The text without the table; null when the table is gone; the table's current text when it was edited. A table
     * the user gave subtables since ({@code [mcp_servers.engram.env]}) counts as edited: taking out the table alone
     * would leave a server without a command.
     */
    public static TextRemoval remove(String text, Placement placement) throws JsonDocument.SyntaxError {
        TomlTables.Scan scan = TomlTables.scan(text);
        TomlTables.Table t = find(scan, placement.table());
        if (t == null) return new TextRemoval(null, null);
        String now = text.substring(t.start(), t.end());
        if (!now.strip().equals(placement.block().strip())) return new TextRemoval(null, now.strip());
        List<String> under = scan.tables().stream().map(TomlTables.Table::name).filter(n -> n.startsWith(placement.table() + ".")).toList();
        if (!under.isEmpty()) return new TextRemoval(null, "[" + String.join("], [", under) + "] added under it");
        if (placement.replaced() != null) {
            String kept = now.substring(now.stripTrailing().length());
            return new TextRemoval(text.substring(0, t.start()) + placement.replaced() + kept + text.substring(t.end()), null);
        }
        String tail = placement.prefix() + placement.block();
        if (t.end() == text.length() && text.endsWith(tail)) return new TextRemoval(text.substring(0, text.length() - tail.length()), null);
        // tables the user added after it stay; the separator init wrote before it goes with it
        String head = text.substring(0, t.start());
        if (!placement.prefix().isEmpty() && head.endsWith(placement.prefix()) && !head.equals(placement.prefix())) {
            head = head.substring(0, head.length() - placement.prefix().length());
        }
        String rest = text.substring(t.end());
        // at the top of the file, the blank line that separated it from what follows goes too
        if (head.isEmpty()) rest = rest.startsWith("\r\n") ? rest.substring(2) : rest.startsWith("\n") ? rest.substring(1) : rest;
        return new TextRemoval(head + rest, null);
    }

    /**
     * How init would have appended the table to give exactly {@code text}, or null: the table is there as init writes
     * it, at the end, after the separator init writes. Such a table (written by an init whose record was lost) can be
     * recorded and taken out by uninstall without touching anything the user wrote.
     */
    public static Added adopt(String text, String table, String block) throws JsonDocument.SyntaxError, JsonEdit.Conflict {
        block = JsonEdit.newlines(text, block);
        for (String prefix : List.of("\n", "\n\n", "")) {
            prefix = JsonEdit.newlines(text, prefix);
            if (!text.endsWith(prefix + block)) continue;
            String without = text.substring(0, text.length() - prefix.length() - block.length());
            Added again = add(without, table, block);
            if (again != null && again.text().equals(text)) return new Added(without, again.placement());
        }
        return null;
    }

    private static TomlTables.Table find(TomlTables.Scan scan, String table) {
        return scan.tables().stream().filter(x -> x.name().equals(table)).findFirst().orElse(null);
    }
}
