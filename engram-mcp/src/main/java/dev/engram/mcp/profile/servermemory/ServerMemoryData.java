package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.RelationDraft;
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

    /** One line for people: what an import did. */
    public static String summary(EntityGraph.ImportSummary s, boolean dryRun) {
        String verb = dryRun ? "would import" : "imported";
        return verb + " " + s.entitiesCreated() + " entities (" + s.entitiesExisting() + " already there), "
                + s.observationsAdded() + " observations, " + s.relationsCreated() + " relations"
                + (s.placeholders() > 0 ? ", and created " + s.placeholders()
                + " entities of type 'unknown' that relations named but the file did not hold" : "")
                + (s.placeholdersFilled() > 0 ? ", and gave " + s.placeholdersFilled() + " entities of type 'unknown' (created"
                + " earlier for a relation's end) the file's type and observations" : "")
                + (s.selfRelationsSkipped() > 0 ? "; skipped " + s.selfRelationsSkipped()
                + " relation(s) from an entity to itself (Engram's relations join two different entities)" : "");
    }

    /**
     * The engine, with {@code file} imported into {@code zone} first if that zone holds no entity yet:
     * what server-memory users get when they switch with their MEMORY_FILE_PATH still set. Runs once, on
     * the first call that needs the engine; a missing or unreadable file is reported to {@code log} and
     * the server goes on with what the store holds.
     */
    public Supplier<Engine> importingOnce(Supplier<Engine> engines, String zone, Path file, PrintStream log) {
        return new Supplier<>() {
            private volatile boolean done;

            @Override
            public Engine get() {
                Engine engine = engines.get();
                if (!done) {
                    synchronized (this) {
                        if (!done) {
                            importAtStart(engine, zone, file, log);
                            done = true;
                        }
                    }
                }
                return engine;
            }
        };
    }

    void importAtStart(Engine engine, String zone, Path file, PrintStream log) {
        EntityGraph graph = engine.entities();
        // once per zone and file: after it ran, deleting everything it brought must not bring it back
        String mark = "server-memory-import/" + zone + "/" + file.toAbsolutePath().normalize();
        if (engine.mark(mark).isPresent()) return;
        if (!graph.recent(zone, 1).isEmpty()) return; // the zone has a graph already: it is the record now
        if (!Files.isRegularFile(file)) {
            log.println("engram: MEMORY_FILE_PATH " + file + " does not exist; nothing to import");
            return;
        }
        try {
            KnowledgeGraph g = codec.read(Files.readString(file, StandardCharsets.UTF_8));
            log.println("engram: " + summary(importGraph(graph, zone, g, false), false) + " from " + file
                    + " into zone '" + zone + "' (the file is not changed; Engram's store is used from now on)");
            engine.setMark(mark, java.time.Instant.now().toString());
        } catch (IOException | RuntimeException e) {
            log.println("engram: could not import MEMORY_FILE_PATH " + file + ": " + e.getMessage()
                    + "; nothing was imported (fix the file, then run: engram import --from server-memory " + file + ")");
        }
    }
}
