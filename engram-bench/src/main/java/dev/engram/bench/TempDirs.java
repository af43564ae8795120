package dev.engram.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Size, copies and removal of benchmark scratch directories. */
public final class TempDirs {
    private TempDirs() {
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("size of " + dir, e);
        }
    }

    /** A closed store (or any tree) file by file into {@code to}, which may exist but holds none of its files. */
    public static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
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
