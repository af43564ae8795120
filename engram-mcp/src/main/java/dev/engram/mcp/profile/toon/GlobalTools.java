package dev.engram.mcp.profile.toon;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * toon's one-shot user-wide file: memory_export_global writes the project's memory there as a TOON
 * document (the previous file kept beside it as {@code .bak}), memory_import_global merges it by key.
 * A shared store across projects is a later item (issue 16 item 6); this is toon's file, as toon has it.
 */
final class GlobalTools {
    private static final String DEFAULT = "~/.toon-memory/memory/global.toon";
    private final ToonContext c;

    GlobalTools(ToonContext c) {
        this.c = c;
    }

    ToonTool exportGlobal() {
        var schema = JsonSchema.input().string("target", "Global file path (default TOON_MEMORY_GLOBAL_FILE or " + DEFAULT + ")", DEFAULT);
        return new ToonTool(ToonTool.define("memory_export_global", "Write the project memory to the user-wide global file, "
                + "to import into other projects with memory_import_global.", schema, ToonTool.hints(false, false, false)), args -> {
            Path dest = file(args, "target");
            c.refuseInTheClear("memory_export_global");
            String text = ToonData.export(c.engine(), c.zone(), Map.of());
            try {
                requireReplaceable(dest);
                if (dest.getParent() != null) Files.createDirectories(dest.getParent());
                if (Files.exists(dest)) {
                    Files.copy(dest, dest.resolveSibling(dest.getFileName() + ".bak"), StandardCopyOption.REPLACE_EXISTING);
                }
                Path tmp = dest.resolveSibling(dest.getFileName() + ".tmp");
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                Files.move(tmp, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new EngramUserException("could not write " + dest + ": " + e.getMessage() + "; send another target");
            }
            int count = ToonFormat.parse(text).entries().size();
            return "📤 Exported " + count + " entries to global memory:\n  " + dest
                    + "\n\nImport them elsewhere with memory_import_global.";
        });
    }

    ToonTool importGlobal() {
        var schema = JsonSchema.input()
                .bool("merge", "Merge by key (default true); false is refused: replacing a project's memory is not built")
                .string("source", "Global file path (default TOON_MEMORY_GLOBAL_FILE or " + DEFAULT + ")", DEFAULT);
        return new ToonTool(ToonTool.define("memory_import_global", "Merge the global memory file into this project by key: "
                + "new keys are added, newer entries update content and tags.", schema, ToonTool.hints(false, true, false)), this::importGlobal);
    }

    private String importGlobal(ToolArgs args) {
        Boolean merge = args.boolOr("merge");
        if (merge != null && !merge) {
            throw new InvalidArgumentException("merge", "false (replace the project's memory) is not built yet; send merge true"
                    + " to merge by key, or forget entries first");
        }
        Path src = file(args, "source");
        if (!Files.isRegularFile(src)) {
            throw new EngramUserException("no global memory at " + src + "; export from another project with memory_export_global first");
        }
        String text;
        try {
            text = ToonData.readUtf8(src);
        } catch (IOException e) {
            throw new EngramUserException("could not read " + src + ": " + e.getMessage() + "; send another source");
        }
        if (!ToonFormat.isDocument(text)) {
            throw new EngramUserException(src + " is not a TOON memory document (no entries[N|] header, or lines that do not"
                    + " parse); send the file memory_export_global wrote");
        }
        Merged m = merge(c, text, "global");
        return "📥 Merged global memory from " + src + m.summary();
    }

    /** What {@link #merge} did. {@code keptSameDay}: keys whose entry differs from this project's but is dated the same day (kept as here). */
    record Merged(int added, int updated, int unchanged, List<String> keptSameDay) {
        /** The counts line of memory_import_global and memory_import_gist. */
        String summary() {
            String out = "\n  Added: " + added + " · Updated: " + updated + " · Unchanged: " + unchanged;
            if (keptSameDay.isEmpty()) return out;
            return out + "\n  ⚠️ Kept this project's version of " + keptSameDay.size() + " entr" + (keptSameDay.size() == 1 ? "y" : "ies")
                    + " with other content dated the same day (toon's dates have no time of day, so which is newer is unknown): "
                    + String.join(", ", keptSameDay.subList(0, Math.min(20, keptSameDay.size())))
                    + (keptSameDay.size() > 20 ? " …" : "") + "; amend the ones that should change";
        }
    }

    /**
     * Merges a TOON document into the project by key (memory_import_global, memory_import_gist): new keys
     * are added (an id already taken gets a new one), a newer entry updates content and adds its tags,
     * the rest is unchanged. The whole plan is checked first: a bad entry leaves the project as it was.
     */
    static Merged merge(ToonContext c, String text, String what) {
        ToonData.Loaded loaded;
        try {
            Path dir = Files.createTempDirectory("engram-global");
            try {
                Files.writeString(dir.resolve("data.toon"), text, StandardCharsets.UTF_8);
                loaded = ToonData.read(dir, c.zone(), c.now());
            } finally {
                Files.deleteIfExists(dir.resolve("data.toon"));
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new EngramUserException("could not read the " + what + " memory: " + e.getMessage());
        }
        return merge(c.engine(), c.zone(), loaded, what);
    }

    /**
     * Merges loaded toon entries into {@code zone} by key: the same rule for memory_import_global, memory_import_gist
     * and a project's data.toon met at start in a zone that already holds memories (a store several projects share).
     */
    static Merged merge(Engine engine, String zone, ToonData.Loaded loaded, String what) {
        Map<String, Memory> byKey = new HashMap<>();
        // ids are the store's: one taken in any zone gets a new one here
        Set<String> ids = ToonData.storeIds(engine, zone, m -> byKey.put(m.key(), m));
        // the whole plan first, checked entry by entry, then the writes: a bad entry leaves the project as it was
        Map<String, String> renamed = new HashMap<>();
        List<ExportRecord> added = new ArrayList<>();
        List<AmendCommand> amends = new ArrayList<>();
        int unchanged = 0;
        List<String> keptSameDay = new ArrayList<>();
        for (ExportRecord r : loaded.records()) {
            Memory g = r.memory();
            Memory local = byKey.get(g.key());
            boolean differs = local != null && !(g.content().equals(local.content()) && local.tags().containsAll(g.tags()));
            if (local == null) {
                check(what, g.key(), g.content(), g.tags());
                String id = ids.add(g.id()) ? g.id() : ToonData.freshId(ids);
                renamed.put(g.id(), id);
                added.add(new ExportRecord(g.toBuilder().id(id).build(), r.edges(), List.of()));
            } else if (differs && g.updatedAt().isAfter(local.updatedAt())) {
                Set<String> tags = new LinkedHashSet<>(local.tags());
                tags.addAll(g.tags());
                check(what, g.key(), g.content(), List.copyOf(tags));
                amends.add(new AmendCommand(local.id(), zone, g.content(), List.copyOf(tags), null));
            } else if (differs && g.updatedAt().atZone(java.time.ZoneOffset.UTC).toLocalDate()
                    .equals(local.updatedAt().atZone(java.time.ZoneOffset.UTC).toLocalDate())) {
                keptSameDay.add(g.key());
            } else {
                unchanged++;
            }
        }
        // edges only between memories that are now here, under their new ids
        Set<String> present = new HashSet<>(ids);
        List<ExportRecord> records = added.stream().map(r -> new ExportRecord(r.memory(), r.edges().stream()
                .map(e -> new Edge(renamed.getOrDefault(e.fromId(), e.fromId()), renamed.getOrDefault(e.toId(), e.toId()), e.type(), e.label(), e.createdAt()))
                .filter(e -> present.contains(e.toId()) && !e.fromId().equals(e.toId())).toList(), List.of())).toList();
        if (!records.isEmpty()) ToonData.importInto(engine, new ToonData.Loaded(records, Map.of(), List.of()), false);
        amends.forEach(engine::amend);
        return new Merged(added.size(), amends.size(), unchanged, List.copyOf(keptSameDay));
    }

    /** An entry's content and tags against Engram's limits, naming the entry when one is over. */
    private static void check(String what, String key, String content, List<String> tags) {
        try {
            MemoryRules.content("content", content);
            MemoryRules.tags("tags", tags);
        } catch (InvalidArgumentException e) {
            throw new EngramUserException(what + " entry '" + key + "' cannot be imported: " + e.getMessage()
                    + "; nothing was imported (shorten it in the " + what + " file, or forget it there)");
        }
    }

    /** An existing file is replaced only when it is a TOON document: anything else is the user's, not ours. */
    private static void requireReplaceable(Path dest) throws IOException {
        if (!Files.exists(dest)) return;
        if (!Files.isRegularFile(dest) || !ToonFormat.isDocument(ToonData.readUtf8(dest))) {
            throw new EngramUserException(dest + " exists and is not a TOON memory document; Engram does not replace it."
                    + " Send another target (a .toon file)");
        }
    }

    /**
     * The global file the model names: the configured one, or a {@code .toon} file under ~/.toon-memory or the
     * project, never one inside the project's own .toon-memory folder (toon's live data).
     */
    private Path file(ToolArgs args, String name) {
        String given = args.textOr(name);
        if (given == null || given.isBlank()) {
            if (c.globalFile() == null) {
                throw new InvalidArgumentException(name, "is required here: no global file is configured (TOON_MEMORY_GLOBAL_FILE)");
            }
            return c.globalFile();
        }
        Path p;
        String v = given.strip();
        try {
            p = (v.startsWith("~/") ? dev.engram.platform.UserHome.current().resolve(v.substring(2)) : c.project().resolve(v))
                    .toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new InvalidArgumentException(name, MemoryRules.shown(given) + " is not a valid path");
        }
        if (c.globalFile() != null && p.equals(c.globalFile().toAbsolutePath().normalize())) return p;
        // judged by real paths: a link inside the project must not lead the write outside it
        p = real(p);
        Path project = real(c.project().toAbsolutePath().normalize());
        Path toonHome = real(dev.engram.platform.UserHome.current().resolve(ToonData.FOLDER).toAbsolutePath().normalize());
        if (p.startsWith(project.resolve(ToonData.FOLDER))) {
            throw new InvalidArgumentException(name, MemoryRules.shown(given) + " is inside the project's " + ToonData.FOLDER
                    + " folder (toon's own data); send the global file, e.g. " + DEFAULT);
        }
        if (!p.getFileName().toString().endsWith(".toon") || !(p.startsWith(toonHome) || p.startsWith(project))) {
            throw new InvalidArgumentException(name, MemoryRules.shown(given) + " is not allowed: send the configured global file or a .toon"
                    + " file under ~/" + ToonData.FOLDER + " or the project, e.g. " + DEFAULT);
        }
        return p;
    }

    /** The path with its deepest existing ancestor's links resolved (the rest does not exist yet). */
    static Path real(Path p) {
        Path existing = p;
        while (existing != null && !java.nio.file.Files.exists(existing)) existing = existing.getParent();
        if (existing == null) return p;
        try {
            return existing.toRealPath().resolve(existing.relativize(p)).normalize();
        } catch (java.io.IOException e) {
            return p;
        }
    }
}
