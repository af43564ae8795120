package dev.engram.cli;

import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportPolicy;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.profile.toon.ToonBackups;
import dev.engram.mcp.profile.toon.ToonData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code engram restore}: brings back a backup that the toon profile's memory_backup wrote (or any file
 * of {@code engram export}). Without FILE it lists the backups of the project's
 * {@code .toon-memory/memory/backups}. The backup's state becomes each memory's, even over a newer
 * one, whose state is kept as a version: nothing is lost, and restoring twice changes nothing more.
 */
@Command(name = "restore", mixinStandardHelpOptions = true, description = {
        "Bring back a backup of the toon profile's memory_backup (or any `engram export` file), all or nothing.",
        "Without FILE: list the backups in .toon-memory/memory/backups (the working directory's, else the git root's).",
        "FILE may be `latest`. Each memory takes the backup's state even where the stored one is newer (that state is",
        "kept as a version); memories the backup does not hold are left as they are. --dry-run writes nothing."})
final class RestoreSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;
    @Parameters(arity = "0..1", paramLabel = "FILE", description = "A backup file, or `latest`") String file;
    @Option(names = "--dry-run", description = "Report what would change, write nothing") boolean dryRun;

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        Main main = root.main();
        Path memoryDir = ToonData.memoryFolder(List.of(main.configLoader().cwd(), config.projectRoot()));
        List<Path> backups = ToonBackups.list(memoryDir);
        if (file == null || file.isBlank()) {
            if (backups.isEmpty()) {
                main.err().println("no backups in " + ToonBackups.dir(memoryDir) + " (memory_backup of `engram mcp --profile toon` writes"
                        + " them); restore another file with: engram restore FILE");
                return 0;
            }
            backups.forEach(b -> main.out().println(b));
            main.err().println(backups.size() + " backup(s), newest first; restore one with: engram restore FILE (or latest)");
            return 0;
        }
        Path source;
        if (file.strip().equals("latest")) {
            if (backups.isEmpty()) throw new EngramUserException("restore latest: no backups in " + ToonBackups.dir(memoryDir));
            source = backups.get(0);
        } else {
            source = Path.of(file);
            if (!Files.isRegularFile(source)) throw new EngramUserException("restore: no such file " + source);
        }
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        List<ExportRecord> records = ToonBackups.read(source, codec,
                dev.engram.crypto.UserKey.fromEnvironment(main.configLoader().environment()).orElse(null));
        ImportResult result;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            result = opened.engine().importAll(new ImportCommand(records, ImportPolicy.REPLACE, dryRun));
        }
        if (dryRun) {
            main.printer(config).print(main.renderers().text().importChanges(result), main.renderers().structured().importResult(result));
        }
        main.err().println((dryRun ? "would restore " : "restored ") + records.size() + " memories from " + source + ": "
                + main.renderers().text().importSummary(result));
        return result.count(ImportOutcome.CONFLICT) > 0 ? ErrorReporter.USER_ERROR : 0;
    }
}
