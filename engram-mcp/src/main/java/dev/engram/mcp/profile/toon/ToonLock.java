package dev.engram.mcp.profile.toon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;

/**
 * toon-memory's advisory lock on one of its files (its lib/lock.ts), so Engram and a toon process still
 * running beside it never write data.toon at the same time: {@code FILE.lock} created exclusively with the
 * holder's pid, taken over when older than 15 s or when its pid is dead, waited for at most 10 s.
 */
final class ToonLock implements AutoCloseable {
    static final Duration STALE = Duration.ofSeconds(15);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private final Path lock;

    private ToonLock(Path lock) {
        this.lock = lock;
    }

    static ToonLock acquire(Path file) throws IOException {
        Path lock = file.resolveSibling(file.getFileName() + ".lock");
        Instant deadline = Instant.now().plus(TIMEOUT);
        while (true) {
            try {
                Files.writeString(lock, Long.toString(ProcessHandle.current().pid()), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return new ToonLock(lock);
            } catch (FileAlreadyExistsException held) {
                if (stale(lock)) {
                    Files.deleteIfExists(lock);
                    continue;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IOException(lock + " is held by another process (toon-memory or Engram) for more than "
                            + TIMEOUT.toSeconds() + " s");
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for " + lock);
                }
            }
        }
    }

    private static boolean stale(Path lock) {
        try {
            if (Files.getLastModifiedTime(lock).toInstant().isBefore(Instant.now().minus(STALE))) return true;
            long pid = Long.parseLong(Files.readString(lock, StandardCharsets.UTF_8).strip());
            return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (IOException | NumberFormatException e) {
            // gone meanwhile, or not written yet by its holder: try again (a half-written one goes stale in 15 s)
            return false;
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(lock);
        } catch (IOException e) {
            // left behind, it names this pid: once the process is gone the next writer takes it over
        }
    }
}
