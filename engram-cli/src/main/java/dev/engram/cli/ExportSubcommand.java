package dev.engram.cli;

import dev.engram.mcp.json.ExportCodec;
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

@Command(name = "export", mixinStandardHelpOptions = true, description = "Write every memory with its edges and versions as JSON lines.")
final class ExportSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of stdout") Path outFile;

    @Override
    public Integer call() throws IOException {
        EngramConfig config = root.config();
        Main main = root.main();
        ExportCodec codec = new ExportCodec(main.renderers().structured(), main.json());
        AtomicLong count = new AtomicLong();
        try (Main.OpenEngine opened = main.openEngine(config);
             Writer w = outFile == null
                     ? new BufferedWriter(new OutputStreamWriter(main.out(), StandardCharsets.UTF_8))
                     : Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
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
        if (outFile != null) main.err().println("exported " + count.get() + " memories to " + outFile);
        return 0;
    }
}
