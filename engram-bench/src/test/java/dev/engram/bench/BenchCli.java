package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs {@code engram-bench} in process and expects a refusal: exit code 2; returns what it printed to stderr. */
final class BenchCli {
    private BenchCli() {
    }

    static String refused(String... args) {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, new CommandLine(new Main()).execute(args), String.join(" ", args));
        } finally {
            System.setErr(before);
        }
        return err.toString(StandardCharsets.UTF_8).strip();
    }
}
