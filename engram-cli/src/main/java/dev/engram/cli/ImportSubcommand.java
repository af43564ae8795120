package dev.engram.cli;

import dev.engram.engine.ExportRecord;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.ExportCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "import", description = "Read JSON lines written by export; existing ids are overwritten.")
final class ImportSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Parameters(paramLabel = "FILE") Path file;

    @Override
    public Integer call() throws IOException {
        EngramConfig config = root.config();
        Main main = root.main();
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        long count = 0;
        int lineNumber = 0;
        try (Main.OpenEngine opened = main.openEngine(config);
             BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank()) continue;
                ExportRecord record;
                try {
                    record = codec.read(line);
                } catch (IllegalArgumentException | EngramUserException e) {
                    throw new EngramUserException(file + " line " + lineNumber + ": " + e.getMessage()
                            + (count > 0 ? " (" + count + " earlier lines were imported)" : ""));
                }
                opened.engine().importRecord(record);
                count++;
            }
        } catch (NoSuchFileException e) {
            throw new EngramUserException("import: no such file " + file);
        }
        main.err().println("imported " + count + " memories from " + file);
        return 0;
    }
}
