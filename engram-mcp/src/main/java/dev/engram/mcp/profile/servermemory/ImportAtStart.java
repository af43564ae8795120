package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.AroundTool;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine, with server-memory's {@code MEMORY_FILE_PATH} imported first ({@link ServerMemoryData#importAtStart}),
 * once, on the first call that needs the engine. When that import fails, stderr says so, and so does the first
 * answer of each session, in a note after the JSON ({@link #noting}): otherwise the agent reads an empty or partial
 * graph as the whole memory and the user learns nothing (server-memory itself fails every call on such a file).
 * The note cannot be the initialize result's instructions: a server answers initialize before its store is open
 * and before this import has run.
 */
public final class ImportAtStart implements Supplier<Engine> {
    /** Sessions told, at most: past this the set starts over (a session may then be told twice). */
    static final int MAX_SESSIONS_TOLD = 10_000;

    private final Supplier<Engine> engines;
    private final Path file;
    private final Function<Engine, String> importer;
    private final Set<String> told = ConcurrentHashMap.newKeySet();
    private volatile boolean done;
    private volatile String failure;

    /** {@code importer} runs the import into the engine and answers why it failed, or null. */
    ImportAtStart(Supplier<Engine> engines, Path file, Function<Engine, String> importer) {
        this.engines = engines;
        this.file = file;
        this.importer = importer;
    }

    @Override
    public Engine get() {
        Engine engine = engines.get();
        if (!done) {
            synchronized (this) {
                if (!done) {
                    failure = importer.apply(engine);
                    done = true;
                }
            }
        }
        return engine;
    }

    /** Why the import failed, for people and agents; null while it has not failed. */
    public String failure() {
        return failure;
    }

    /** The profile whose tools add {@link #note} to a session's first answer while the import has failed. */
    public ToolProfile noting(ToolProfile profile) {
        // the tool has called for the engine by the time it answers: the import has run
        return profile.withTools(t -> new AroundTool(t, args -> { }, (args, reply) -> {
            String note = noteFor(args.caller().session());
            return note == null ? reply : reply.withNote(note);
        }));
    }

    /** What an agent is told: the file, why, that nothing of it is in this graph, and what the user can do. */
    public static String note(Path file, String why) {
        String said = why.strip();
        if (!said.matches("(?s).*[.?!]")) said += ".";
        return "Note from the server: the memory file in MEMORY_FILE_PATH could not be imported: " + said
                + " This knowledge graph holds none of its entities and relations; " + file + " is unchanged. Tell the"
                + " user: once the file is fixed, the next start imports it (or they can run: engram import --from"
                + " server-memory " + file + ")";
    }

    /** The note for this caller's session if the import failed and the session was not told yet, else null. */
    String noteFor(String session) {
        String why = failure;
        if (why == null) return null;
        if (told.size() >= MAX_SESSIONS_TOLD) told.clear();
        return told.add(session == null ? "" : session) ? note(file, why) : null;
    }
}
