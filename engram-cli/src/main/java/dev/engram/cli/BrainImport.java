package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.profile.brain.BrainData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code engram import --from brain FILE}: mcp-brain-tools' JSONL export or backup JSON (see {@link BrainData}). Lines
 * it cannot use are skipped and named in the summary; the rest is imported in one write.
 */
final class BrainImport {
    static final String FORMAT = "brain";

    private BrainImport() {
    }

    static int run(Path file, boolean dryRun, boolean replace, EngramConfig config, Main main) throws IOException {
        if (replace) {
            throw new EngramUserException("import --from brain: --replace does not apply; an entity the store holds keeps its"
                    + " type and gains the file's new observations");
        }
        BrainData.Parsed parsed;
        try {
            parsed = BrainData.parse(Files.readString(file, StandardCharsets.UTF_8), config.defaultZone(), main.json());
        } catch (NoSuchFileException e) {
            throw new EngramUserException("import: no such file " + file);
        } catch (EngramUserException e) {
            throw new EngramUserException(file + " " + e.getMessage() + "; nothing was imported");
        }
        BrainData.Summary summary;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            summary = BrainData.importInto(opened.engine(), parsed, dryRun);
        }
        main.err().println(summary.describe(dryRun) + " from " + file);
        return 0;
    }
}
