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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "import", description = "Read JSON lines written by export, all or nothing; existing ids are overwritten.")
final class ImportSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Parameters(paramLabel = "FILE") Path file;

    @Override
    public Integer call() throws IOException {
        EngramConfig config = root.config();
        Main main = root.main();
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        List<ExportRecord> records = new ArrayList<>();
        int lineNumber = 0;
        // parse everything first: a bad line then imports nothing, and one importAll call writes the
        // memories before their edges, so an edge may point at a memory later in the file
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank()) continue;
                try {
                    records.add(codec.read(line));
                } catch (IllegalArgumentException | EngramUserException e) {
                    throw new EngramUserException(file + " line " + lineNumber + ": " + e.getMessage()
                            + "; nothing was imported");
                }
            }
        } catch (NoSuchFileException e) {
            throw new EngramUserException("import: no such file " + file);
        }
        try (Main.OpenEngine opened = main.openEngine(config)) {
            opened.engine().importAll(records);
        }
        main.err().println("imported " + records.size() + " memories from " + file);
        return 0;
    }
}
