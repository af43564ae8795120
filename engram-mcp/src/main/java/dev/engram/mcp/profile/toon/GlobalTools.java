package dev.engram.mcp.profile.toon;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.ExportRecord;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.concurrent.ThreadLocalRandom;

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
            String text = ToonData.export(c.engine(), c.zone(), Map.of());
            try {
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
        ToonData.Loaded loaded;
        try {
            Path dir = Files.createTempDirectory("engram-global");
            try {
                Files.copy(src, dir.resolve("data.toon"));
                loaded = ToonData.read(dir, c.zone(), c.now());
            } finally {
                Files.deleteIfExists(dir.resolve("data.toon"));
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Memory> byKey = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (Memory m : c.all()) {
            byKey.put(m.key(), m);
            ids.add(m.id());
        }
        Map<String, String> renamed = new HashMap<>();
        List<ExportRecord> added = new ArrayList<>();
        int updated = 0, unchanged = 0;
        for (ExportRecord r : loaded.records()) {
            Memory g = r.memory();
            Memory local = byKey.get(g.key());
            if (local == null) {
                String id = g.id();
                while (ids.contains(id)) id = String.format("%08x", ThreadLocalRandom.current().nextInt());
                ids.add(id);
                renamed.put(g.id(), id);
                added.add(new ExportRecord(g.toBuilder().id(id).build(), r.edges(), List.of()));
            } else if (g.updatedAt().isAfter(local.updatedAt()) && !(g.content().equals(local.content()) && local.tags().containsAll(g.tags()))) {
                Set<String> tags = new LinkedHashSet<>(local.tags());
                tags.addAll(g.tags());
                c.engine().amend(new AmendCommand(local.id(), c.zone(), g.content(), List.copyOf(tags), null));
                updated++;
            } else {
                unchanged++;
            }
        }
        // edges only between memories that are now here, under their new ids
        Set<String> present = new HashSet<>(ids);
        List<ExportRecord> records = added.stream().map(r -> new ExportRecord(r.memory(), r.edges().stream()
                .map(e -> new Edge(renamed.getOrDefault(e.fromId(), e.fromId()), renamed.getOrDefault(e.toId(), e.toId()), e.type(), e.label(), e.createdAt()))
                .filter(e -> present.contains(e.toId()) && !e.fromId().equals(e.toId())).toList(), List.of())).toList();
        if (!records.isEmpty()) ToonData.importInto(c.engine(), new ToonData.Loaded(records, Map.of(), List.of()), false);
        return "📥 Merged global memory from " + src + "\n  Added: " + added.size() + " · Updated: " + updated + " · Unchanged: " + unchanged;
    }

    private Path file(ToolArgs args, String name) {
        String given = args.textOr(name);
        if (given != null && !given.isBlank()) {
            try {
                String v = given.strip();
                return v.startsWith("~/") ? Path.of(System.getProperty("user.home"), v.substring(2)) : c.project().resolve(v);
            } catch (InvalidPathException e) {
                throw new InvalidArgumentException(name, "'" + given + "' is not a valid path");
            }
        }
        if (c.globalFile() == null) {
            throw new InvalidArgumentException(name, "is required here: no global file is configured (TOON_MEMORY_GLOBAL_FILE)");
        }
        return c.globalFile();
    }
}
