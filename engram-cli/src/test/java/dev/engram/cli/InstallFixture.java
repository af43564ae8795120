package dev.engram.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram init} / {@code uninstall} run in-process against a temporary home and a project with a git folder. */
abstract class InstallFixture {
    static final String COMMAND = "/opt/engram/bin/engram";

    @TempDir
    Path tmp;
    Path home;
    Path project;

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void dirs() throws IOException {
        home = Files.createDirectories(tmp.resolve("home"));
        project = Files.createDirectories(tmp.resolve("project"));
        Files.createDirectories(project.resolve(".git"));
    }

    Run engram(String... args) {
        return engramOn("Linux", args);
    }

    Run engramOn(String os, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(Map.of("ENGRAM_HOME", tmp.resolve("store").toString()), project, home, os,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null)).run(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code engram init --command COMMAND} and {@code more}. */
    Run init(String... more) {
        List<String> args = new ArrayList<>(List.of("init", "--command", COMMAND));
        args.addAll(List.of(more));
        return engram(args.toArray(String[]::new));
    }
}
