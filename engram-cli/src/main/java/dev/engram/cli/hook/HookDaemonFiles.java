package dev.engram.cli.hook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Where the hook daemon of one data folder says how to reach it, in {@code DATA/hookd/} (a folder only
 * its user may enter): {@value #ENDPOINT} ({@code PORT PID}), {@value #AUTH} (the request header with the
 * daemon's secret, for {@code curl -H @FILE}), both 0600 and written whole (renamed into place, secret
 * first); {@value #LOCK}, held by the running daemon (one per data folder); {@value #LOG}, the stderr of a
 * daemon a hook call started.
 */
public record HookDaemonFiles(Path dir) {
    public static final String FOLDER = "hookd";
    public static final String ENDPOINT = "endpoint";
    public static final String AUTH = "auth";
    public static final String LOCK = "daemon.lock";
    public static final String LOG = "daemon.log";

    public static HookDaemonFiles in(Path dataDir) {
        return new HookDaemonFiles(dataDir.resolve(FOLDER));
    }

    public Path endpoint() {
        return dir.resolve(ENDPOINT);
    }

    public Path auth() {
        return dir.resolve(AUTH);
    }

    public Path lock() {
        return dir.resolve(LOCK);
    }

    public Path log() {
        return dir.resolve(LOG);
    }

    /** How a running daemon is reached. */
    public record Endpoint(int port, long pid) {
        String line() {
            return port + " " + pid + "\n";
        }
    }

    /** Creates the folder for its user only (0700), and makes an existing one so. */
    public void create() throws IOException {
        Files.createDirectories(dir);
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the folder is in the user's own profile
        }
    }

    /** The endpoint a daemon wrote; empty when there is none or it is not one. */
    public Optional<Endpoint> readEndpoint() {
        try {
            String[] parts = Files.readString(endpoint(), StandardCharsets.US_ASCII).strip().split(" ");
            return parts.length == 2 ? Optional.of(new Endpoint(Integer.parseInt(parts[0]), Long.parseLong(parts[1])))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    void write(Endpoint endpoint, String secret) throws IOException {
        writePrivate(auth(), "Authorization: Bearer " + secret + "\n");
        writePrivate(endpoint(), endpoint.line());
    }

    /** Removes the endpoint and secret when they are still {@code ours} (a newer daemon's stay). */
    void remove(Endpoint ours) {
        if (readEndpoint().filter(ours::equals).isEmpty()) return;
        try {
            Files.deleteIfExists(endpoint());
            Files.deleteIfExists(auth());
        } catch (IOException e) {
            // a stale endpoint is harmless: the launcher finds no one there and falls back
        }
    }

    private void writePrivate(Path file, String text) throws IOException {
        Path tmp = dir.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
