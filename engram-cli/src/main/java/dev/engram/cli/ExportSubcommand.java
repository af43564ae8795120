package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.memory.ZoneInfo;
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.profile.servermemory.ServerMemoryData;
import dev.engram.mcp.profile.servermemory.ServerMemoryProfile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "export", mixinStandardHelpOptions = true, description = {"Write every memory with its edges and versions as JSON lines,",
        "after a line for each zone that has descriptions or was created on purpose (empty zones too).",
        "--format server-memory writes the zone's entity graph (--zone, else default) as @modelcontextprotocol/server-memory's memory.jsonl.",
        "--format toon writes the zone (--zone, else default) as toon-memory's data.toon."})
final class ExportSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of stdout") Path outFile;
    @Option(names = "--format", paramLabel = "FORMAT", description = "engram (default), server-memory or toon") String format;
    @picocli.CommandLine.Mixin RemoteOptions remote = new RemoteOptions();

    @Override
    public Integer call() throws IOException {
        EngramConfig config = root.config();
        Main main = root.main();
        if (remote.active()) return exportRemote(config, main);
        if (format != null && format.strip().equals(ServerMemoryProfile.NAME)) return exportServerMemory(config, main);
        if (format != null && format.strip().equals(ToonImport.FORMAT)) return ToonImport.export(outFile, config, main);
        if (format != null && !format.strip().equals("engram")) {
            throw new EngramUserException("export --format: '" + format + "' is not a format; send engram, " + ServerMemoryProfile.NAME
                    + " or " + ToonImport.FORMAT);
        }
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        AtomicLong count = new AtomicLong();
        AtomicLong zones = new AtomicLong();
        try (Main.OpenEngine opened = main.openEngine(config);
             Writer w = outFile == null
                     ? new BufferedWriter(new OutputStreamWriter(main.out(), StandardCharsets.UTF_8))
                     : Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
            // zone lines first: an importer reading in order knows the zones before their memories
            for (ZoneInfo zone : opened.engine().zoneRecords(config.zone())) {
                w.write(codec.write(zone));
                w.write('\n');
                zones.incrementAndGet();
            }
            opened.engine().export(config.zone(), record -> {
                try {
                    w.write(codec.write(record));
                    w.write('\n');
                    count.incrementAndGet();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.flush();
        }
        if (outFile != null) {
            main.err().println("exported " + count.get() + " memories" + (zones.get() > 0 ? " and " + zones.get() + " zone records" : "")
                    + " to " + outFile);
        }
        return 0;
    }

    /** The server's export (GET /export), the same lines as a local export of what the token may read. */
    private Integer exportRemote(EngramConfig config, Main main) throws IOException {
        if (format != null && !format.strip().equals("engram")) {
            throw new EngramUserException("export --remote writes the engram format only; drop --format " + format.strip()
                    + ", or run export on the server's machine");
        }
        long count;
        try (RemoteServer server = remote.connect(main, config)) {
            if (outFile == null) {
                count = server.export(config.zone(), main.out());
            } else {
                Path partial = outFile.resolveSibling(outFile.getFileName() + ".partial");
                try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(partial))) {
                    count = server.export(config.zone(), out);
                } catch (RuntimeException | IOException e) {
                    Files.deleteIfExists(partial); // nothing half-written under the name asked for
                    throw e;
                }
                Files.move(partial, outFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (outFile != null) main.err().println("exported " + count + " memories from " + remote.url + " to " + outFile);
        return 0;
    }

    /** The zone's graph, byte for byte as server-memory writes its file (no newline after the last line). */
    private Integer exportServerMemory(EngramConfig config, Main main) throws IOException {
        String text;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            text = new ServerMemoryData(main.json()).export(opened.engine().entities(), config.defaultZone());
        }
        if (outFile == null) {
            main.out().write(text.getBytes(StandardCharsets.UTF_8));
            main.out().flush();
        } else {
            Files.writeString(outFile, text, StandardCharsets.UTF_8);
            main.err().println("exported zone '" + config.defaultZone() + "' as server-memory's memory.jsonl to " + outFile);
        }
        return 0;
    }
}
