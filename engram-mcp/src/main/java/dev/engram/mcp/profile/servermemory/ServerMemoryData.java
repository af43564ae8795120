package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.mcp.json.JsonLines;
import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * server-memory's data in and out of Engram: a {@code memory.jsonl} graph imported into a zone (one
 * write, never losing what the store holds: see {@link EntityGraph#importGraph}) and a zone exported
 * as one. Used by {@code engram import --from server-memory}, {@code engram export --format
 * server-memory} and the import at start-up when {@code MEMORY_FILE_PATH} is set.
 */
public final class ServerMemoryData {
    private final MemoryJsonl codec;

    public ServerMemoryData(JsonText json) {
        this.codec = new MemoryJsonl(json);
    }

    public MemoryJsonl codec() {
        return codec;
    }

    /**
     * A {@code memory.jsonl} file's text as the graph an import stores, with what was left out or mended on the way
     * ({@link MemoryJsonl#read}'s skipped lines, then {@link StorableGraph}'s changes), each a phrase for the report.
     */
    public record FileGraph(KnowledgeGraph graph, List<String> notes) {
        public FileGraph {
            notes = List.copyOf(notes);
        }
    }

    /**
     * {@link #read(String)} of a file's UTF-8 text. A file that is not UTF-8 is refused in words (the JDK's own
     * message was "Input length = 3"); server-memory writes UTF-8.
     */
    public FileGraph read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new dev.engram.error.EngramUserException(file + " is not UTF-8 text (server-memory writes its memory.jsonl"
                    + " as UTF-8); is it the right file?");
        }
        return read(text);
    }

    public FileGraph read(String text) {
        MemoryJsonl.Read read = codec.read(text);
        StorableGraph storable = StorableGraph.of(read.graph());
        List<String> notes = new java.util.ArrayList<>();
        List<String> skipped = read.skipped();
        if (!skipped.isEmpty()) notes.add(JsonLines.skippedNote(skipped, "line(s) skipped and left in the file"));
        notes.addAll(storable.changes());
        return new FileGraph(storable.graph(), notes);
    }

    /** The graph into {@code zone}; entities are kept once per name (an entity the zone holds gains the file's observations). */
    public EntityGraph.ImportSummary importGraph(EntityGraph graph, String zone, KnowledgeGraph file, boolean dryRun) {
        List<EntityDraft> entities = file.entities().stream()
                .map(e -> new EntityDraft(e.name(), e.entityType(), e.observations())).toList();
        List<RelationDraft> relations = file.relations().stream()
                .map(r -> RelationDraft.of(r.from(), r.to(), r.relationType())).toList();
        return graph.importGraph(zone, entities, relations, dryRun);
    }

    /** The zone as server-memory's file text (relations to entities of other zones are written by name too). */
    public String export(EntityGraph graph, String zone) {
        return codec.write(GraphRenderer.graph(graph.read(zone)));
    }

    /** One line for people: what an import did, then what it left out or mended ({@link FileGraph#notes}). */
    public static String summary(EntityGraph.ImportSummary s, boolean dryRun, List<String> notes) {
        String verb = dryRun ? "would import" : "imported";
        return verb + " " + s.entitiesCreated() + " entities (" + s.entitiesExisting() + " already there), "
                + s.observationsAdded() + " observations, " + s.relationsCreated() + " relations"
                + (s.placeholders() > 0 ? ", and created " + s.placeholders()
                + " entities of type 'unknown' that relations named but the file did not hold" : "")
                + (s.placeholdersFilled() > 0 ? ", and gave " + s.placeholdersFilled() + " entities of type 'unknown' (created"
                + " earlier for a relation's end) the file's type and observations" : "")
                + (s.selfRelationsSkipped() > 0 ? "; skipped " + s.selfRelationsSkipped()
                + " relation(s) from an entity to itself (Engram's relations join two different entities)" : "")
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
    }

    /**
     * The engine, with {@code file} imported into {@code zone} first if that zone holds no entity yet:
     * what server-memory users get when they switch with their MEMORY_FILE_PATH still set. Runs once, on
     * the first call that needs the engine; a missing or unreadable file is reported to {@code log} and
     * the server goes on with what the store holds. A failure is also told to agents ({@link ImportAtStart#noting}).
     */
    public ImportAtStart importingOnce(Supplier<Engine> engines, String zone, Path file, PrintStream log) {
        return new ImportAtStart(engines, file, engine -> importAtStart(engine, zone, file, log));
    }

    /** Runs the import; answers why it failed (a phrase an agent can pass on), or null when it ran or had nothing to do. */
    String importAtStart(Engine engine, String zone, Path file, PrintStream log) {
        EntityGraph graph = engine.entities();
        // once per zone and file: after it ran, deleting everything it brought must not bring it back
        String where = zone + "/" + file.toAbsolutePath().normalize();
        String mark = "server-memory-import/" + where;
        if (engine.mark(mark).isPresent()) return null;
        // the zone has a graph already: it is the record now, unless an import of this file failed before (the agent
        // may have written since, seeing an empty memory; an import merges, so it loses nothing of that)
        String failed = "server-memory-import-failed/" + where;
        if (!graph.recent(zone, 1).isEmpty() && engine.mark(failed).isEmpty()) return null;
        if (Files.isDirectory(file)) {
            log.println("engram: MEMORY_FILE_PATH " + file + " is a directory, not a memory.jsonl file; nothing to import");
            markFailed(engine, failed); // told again at each start, until MEMORY_FILE_PATH names a file
            return "it is a directory, not a memory.jsonl file";
        }
        if (!Files.isRegularFile(file)) {
            // server-memory starts with an empty graph then, and creates the file on its first write
            log.println("engram: MEMORY_FILE_PATH " + file + " does not exist; nothing to import");
            return null;
        }
        try {
            FileGraph g = read(file);
            log.println("engram: " + summary(importGraph(graph, zone, g.graph(), false), false, g.notes()) + " from " + file
                    + " into zone '" + zone + "' (the file is not changed; Engram's store is used from now on)");
            engine.setMark(mark, java.time.Instant.now().toString());
            return null;
        } catch (IOException | RuntimeException e) {
            log.println("engram: could not import MEMORY_FILE_PATH " + file + ": " + e.getMessage()
                    + "; nothing was imported; it is tried again at the next start (or run: engram import --from server-memory "
                    + file + ")");
            markFailed(engine, failed);
            return why(e);
        }
    }

    private static void markFailed(Engine engine, String failed) {
        try {
            engine.setMark(failed, java.time.Instant.now().toString());
        } catch (RuntimeException unrecorded) {
            // the store itself failed: the zone is still empty then, and the next start tries anyway
        }
    }

    /**
     * A failure in words an agent may read: the message of what the user can act on (a file that is not UTF-8, a
     * store that is unavailable, a file that cannot be read), never a Java class or trace; stderr has the rest.
     */
    static String why(Exception e) {
        if (e instanceof dev.engram.error.EngramUserException || e instanceof dev.engram.error.StoreUnavailableException) {
            return e.getMessage();
        }
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof IOException) return "it could not be read (" + e.getMessage() + ")";
        return "the store failed while importing it (the server's stderr has the details)";
    }
}
