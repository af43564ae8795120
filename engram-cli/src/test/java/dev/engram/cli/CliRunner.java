package dev.engram.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;

/** Runs the CLI in-process with captured stdout and stderr. */
final class CliRunner {
    record Run(int exitCode, String out, String err) {
    }

    private final Path dir;
    private final Map<String, String> env;
    private final BiFunction<EngramConfig, Main.Embedding, Main.OpenEngine> opener;

    CliRunner(Path dir, BiFunction<EngramConfig, Main.Embedding, Main.OpenEngine> opener) {
        this(dir, Map.of(), opener);
    }

    CliRunner(Path dir, Map<String, String> env, BiFunction<EngramConfig, Main.Embedding, Main.OpenEngine> opener) {
        this.dir = dir;
        this.env = env;
        this.opener = opener;
    }

    Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(env, dir, dir, "Linux", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), opener).run(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
