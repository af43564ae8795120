package dev.engram.cli;

import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.profile.toon.ToonData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * {@code engram import --from toon DIR} (a project, its .toon-memory folder or the memory folder) and
 * {@code engram export --format toon}: toon-memory's data.toon and archive.toon, see {@link ToonData}.
 */
final class ToonImport {
    static final String FORMAT = "toon";

    private ToonImport() {
    }

    static int run(Path dir, boolean dryRun, boolean replace, EngramConfig config, Main main) throws IOException {
        // the data.toon file itself names its folder, as the folder does
        if (Files.isRegularFile(dir) && dir.getFileName().toString().equals("data.toon")) dir = dir.toAbsolutePath().getParent();
        if (replace) {
            throw new EngramUserException("import --from toon: --replace does not apply; a memory the store holds under the"
                    + " same id keeps its newer state, the file's becomes a version");
        }
        ToonData.Loaded loaded = ToonData.read(dir, config.defaultZone(), Instant.now(),
                dev.engram.crypto.UserKey.fromEnvironment(main.configLoader().environment()).orElse(null));
        ImportResult result;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            result = ToonData.importInto(opened.engine(), loaded, dryRun);
            // memory_summary's, as the toon profile's own import at first start keeps them
            if (!dryRun && result.count(ImportOutcome.CONFLICT) == 0) ToonData.importSummaries(opened.engine(), config.defaultZone(), loaded);
        }
        if (dryRun) {
            main.printer(config).print(main.renderers().text().importChanges(result),
                    main.renderers().structured().importResult(result));
        }
        loaded.problems().forEach(p -> main.err().println("note: " + p));
        main.err().println((dryRun ? "" : "imported " + loaded.records().size() + " toon-memory entries from " + dir
                + " into zone '" + config.defaultZone() + "': ") + main.renderers().text().importSummary(result)
                + (loaded.summaries().isEmpty() ? "" : "; " + loaded.summaries().size() + " file "
                + (loaded.summaries().size() == 1 ? "summary" : "summaries") + (dryRun ? " would be" : "") + " kept for memory_summary"));
        return result.count(ImportOutcome.CONFLICT) > 0 ? ErrorReporter.USER_ERROR : 0;
    }

    static int export(Path outFile, EngramConfig config, Main main) throws IOException {
        String text;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            text = ToonData.export(opened.engine(), config.defaultZone());
        }
        if (outFile == null) {
            main.out().write(text.getBytes(StandardCharsets.UTF_8));
            main.out().flush();
        } else {
            write(outFile, text);
            main.err().println("exported zone '" + config.defaultZone() + "' as toon-memory's data.toon to " + outFile);
        }
        return 0;
    }

    /**
     * Writes like memory_export_global: never into a .toon-memory folder (toon's live data) but as global.toon, never over a
     * file that is not a TOON document, the previous file kept as .bak, the new one moved in whole.
     */
    static void write(Path outFile, String text) throws IOException {
        Path dest = outFile.toAbsolutePath().normalize();
        // global.toon is toon's user-wide export file (~/.toon-memory/memory/global.toon); the rest of the folder is toon's live data
        boolean global = dest.getFileName().toString().equals("global.toon");
        for (Path p = dest.getParent(); p != null && !global; p = p.getParent()) {
            if (p.getFileName() != null && p.getFileName().toString().equals(ToonData.FOLDER)) {
                throw new EngramUserException(outFile + " is inside a " + ToonData.FOLDER + " folder (toon-memory's own data);"
                        + " Engram does not write there. Choose another --out file");
            }
        }
        if (Files.exists(dest)) {
            if (!Files.isRegularFile(dest) || !dev.engram.mcp.profile.toon.ToonFormat.isDocument(ToonData.readUtf8(dest))) {
                throw new EngramUserException(outFile + " exists and is not a TOON memory document; Engram does not replace it."
                        + " Choose another --out file");
            }
            Files.copy(dest, dest.resolveSibling(dest.getFileName() + ".bak"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        if (dest.getParent() != null) Files.createDirectories(dest.getParent());
        Path tmp = dest.resolveSibling(dest.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
