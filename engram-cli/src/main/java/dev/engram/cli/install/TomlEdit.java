package dev.engram.cli.install;

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
        String prefix = JsonEdit.newlines(text, text.isEmpty() ? "" : text.endsWith("\n") ? "\n" : "\n\n");
        return new Added(text + prefix + block, new Placement(table, block, prefix, null));
    }

    /** The text without the table; null when the table is gone; the table's current text when it was edited. */
    public static TextRemoval remove(String text, Placement placement) throws JsonDocument.SyntaxError {
        TomlTables.Scan scan = TomlTables.scan(text);
        TomlTables.Table t = find(scan, placement.table());
        if (t == null) return new TextRemoval(null, null);
        String now = text.substring(t.start(), t.end());
        if (!now.strip().equals(placement.block().strip())) return new TextRemoval(null, now.strip());
        if (placement.replaced() != null) {
            String kept = now.substring(now.stripTrailing().length());
            return new TextRemoval(text.substring(0, t.start()) + placement.replaced() + kept + text.substring(t.end()), null);
        }
        String tail = placement.prefix() + placement.block();
        if (t.end() == text.length() && text.endsWith(tail)) return new TextRemoval(text.substring(0, text.length() - tail.length()), null);
        return new TextRemoval(text.substring(0, t.start()) + text.substring(t.end()), null);
    }

    private static TomlTables.Table find(TomlTables.Scan scan, String table) {
        return scan.tables().stream().filter(x -> x.name().equals(table)).findFirst().orElse(null);
    }
}
