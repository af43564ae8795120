package dev.engram.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Size and removal of benchmark scratch directories. */
final class TempDirs {
    private TempDirs() {
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("size of " + dir, e);
        }
    }

    /** Deletes a scratch tree; a failure is logged, not thrown, because the figures are already taken. */
    static void deleteQuietly(Path dir, PrintStream log) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.println("could not delete " + dir + ": " + e.getMessage());
        }
    }
}
