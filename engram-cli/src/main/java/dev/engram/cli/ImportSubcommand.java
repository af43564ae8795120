package dev.engram.cli;

import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportPolicy;
import dev.engram.engine.ImportResult;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.error.EngramUserException;
import dev.engram.memory.ZoneInfo;
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.profile.memento.MementoData;
import dev.engram.mcp.profile.servermemory.KnowledgeGraph;
import dev.engram.mcp.profile.servermemory.ServerMemoryData;
import dev.engram.mcp.profile.servermemory.ServerMemoryProfile;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "import", mixinStandardHelpOptions = true, description = {"Read JSON lines written by export, all or nothing.",
        "A memory the store holds already keeps its newer state; the other one becomes a version, so nothing is lost.",
        "A zone line adds the zone, or the descriptions a stored zone lacks (a stored description stays).",
        "--from brain reads mcp-brain-tools' JSONL export or backup JSON (zones as in the file, else --zone).",
        "--from toon reads toon-memory's data.toon and archive.toon from FILE, a project (its .toon-memory/memory) or that folder.",
        "--from memento reads memento-mcp export's JSONL (or --json array) from FILE, or a Memento database with --jdbc URL:",
        "fragments with their topics, keywords, importance, anchors, links and versions (vectors are re-embedded).",
        "--from server-memory reads a memory.jsonl of @modelcontextprotocol/server-memory into the zone (--zone, else default):",
        "an entity the zone holds already keeps its type and gains the file's new observations.",
        "Prints a summary to stderr; --dry-run prints what would change and writes nothing."})
final class ImportSubcommand implements Callable<Integer> {
    /** From this many records an import says what it is doing before its one transaction (seconds on PostgreSQL). */
    static final int PROGRESS_FROM = 1_000;

    @ParentCommand
    EngramCommand root;

    @Parameters(paramLabel = "FILE", arity = "0..1") Path file;
    @Option(names = "--jdbc", paramLabel = "URL", description = "With --from memento: read a Memento PostgreSQL database"
            + " (postgresql://user@host:5432/memento; schema agent_memory unless ?schema=) instead of FILE")
    String jdbc;
    @Option(names = "--dry-run", description = "Report what would change (per memory on stdout), write nothing")
    boolean dryRun;
    @Option(names = "--replace", description = "The file wins even over newer stored memories"
            + " (their content is kept as a version)")
    boolean replace;
    @Option(names = "--from", paramLabel = "FORMAT", description = "engram (default: what export writes), server-memory, brain, toon or memento")
    String from;

    @Override
    public Integer call() throws IOException {
        EngramConfig config = root.config();
        Main main = root.main();
        if (from != null && from.strip().equals(MementoData.FORMAT)) return MementoImport.run(file, jdbc, dryRun, replace, config, main);
        if (jdbc != null) {
            throw new EngramUserException("import: --jdbc reads a Memento database; send it with --from memento");
        }
        if (file == null) throw new EngramUserException("import: FILE is required (what to import)");
        if (from != null && from.strip().equals(ServerMemoryProfile.NAME)) return importServerMemory(config, main);
        if (from != null && from.strip().equals(BrainImport.FORMAT)) return BrainImport.run(file, dryRun, replace, config, main);
        if (from != null && from.strip().equals(ToonImport.FORMAT)) return ToonImport.run(file, dryRun, replace, config, main);
        if (from != null && !from.strip().equals("engram")) {
            throw new EngramUserException("import --from: '" + from + "' is not a format; send engram, " + ServerMemoryProfile.NAME
                    + ", " + BrainImport.FORMAT + ", " + ToonImport.FORMAT + " or " + MementoData.FORMAT);
        }
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        List<ExportRecord> records = new ArrayList<>();
        List<ZoneInfo> zones = new ArrayList<>();
        int lineNumber = 0;
        // parse everything first: a bad line then imports nothing, and one importAll call writes the
        // memories before their edges, so an edge may point at a memory later in the file
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank()) continue;
                try {
                    ExportCodec.Line read = codec.readLine(line);
                    if (read instanceof ExportCodec.OfZone z) zones.add(z.zone());
                    else records.add(((ExportCodec.OfMemory) read).record());
                } catch (IllegalArgumentException | EngramUserException e) {
                    throw new EngramUserException(file + " line " + lineNumber + ": " + e.getMessage()
                            + "; nothing was imported");
                }
            }
        } catch (NoSuchFileException e) {
            throw new EngramUserException("import: no such file " + file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new EngramUserException(file + " line " + (lineNumber + 1) + ": not UTF-8 text; an export is UTF-8 JSON lines"
                    + "; nothing was imported");
        } catch (IOException e) {
            if (Files.isDirectory(file)) {
                throw new EngramUserException("import: " + file + " is a directory; send an export file (JSON lines)"
                        + (from == null ? ", or --from toon for a .toon-memory folder" : ""));
            }
            throw e;
        }
        ImportCommand command = new ImportCommand(records, replace ? ImportPolicy.REPLACE : ImportPolicy.KEEP_NEWER, dryRun, zones);
        ImportResult result;
        long started = System.nanoTime();
        if (records.size() >= PROGRESS_FROM) {
            // one transaction does it all (nothing half-imported), so this is the last word until it ends
            main.err().println("import: read " + records.size() + " records from " + file + "; "
                    + (dryRun ? "comparing them with the store" : "writing them in one transaction") + "…");
        }
        try (Main.OpenEngine opened = main.openEngine(config)) {
            result = opened.engine().importAll(command);
        }
        if (records.size() >= PROGRESS_FROM) {
            main.err().println("import: done in " + (System.nanoTime() - started) / 1_000_000_000 + " s");
        }
        if (dryRun) {
            main.printer(config).print(main.renderers().text().importChanges(result),
                    main.renderers().structured().importResult(result));
        }
        main.err().println((dryRun ? "" : "imported " + records.size() + " records from " + file + ": ")
                + main.renderers().text().importSummary(result));
        // a dry run fails as the import would, so `import --dry-run FILE && import FILE` is safe to script
        return result.count(ImportOutcome.CONFLICT) > 0 ? ErrorReporter.USER_ERROR : 0;
    }

    /**
     * A server-memory memory.jsonl into the zone, in one write; lines it cannot use are skipped and items Engram would
     * refuse are mended or left out ({@link ServerMemoryData#read}), each said in the report.
     */
    private Integer importServerMemory(EngramConfig config, Main main) throws IOException {
        if (replace) {
            throw new EngramUserException("import --from server-memory: --replace does not apply; an entity the store holds"
                    + " keeps its type and gains the file's new observations");
        }
        ServerMemoryData data = new ServerMemoryData(main.json());
        ServerMemoryData.FileGraph graph;
        try {
            graph = data.read(file);
        } catch (NoSuchFileException e) {
            throw new EngramUserException("import: no such file " + file);
        }
        EntityGraph.ImportSummary summary;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            summary = data.importGraph(opened.engine().entities(), config.defaultZone(), graph.graph(), dryRun);
        } catch (EngramUserException e) {
            throw new EngramUserException(file + ": " + e.getMessage() + "; nothing was imported");
        }
        main.err().println(ServerMemoryData.summary(summary, dryRun, graph.notes()) + " from " + file + " into zone '"
                + config.defaultZone() + "'");
        return 0;
    }
}
