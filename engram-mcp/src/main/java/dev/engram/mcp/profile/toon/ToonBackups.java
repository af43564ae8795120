package dev.engram.mcp.profile.toon;

import dev.engram.crypto.AesGcm;
import dev.engram.crypto.UserKey;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.ExportCodec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * memory_backup's backups: the zone as Engram's export lines (every memory with its edges and
 * versions, what {@code engram import} and {@code engram restore} read), one file per backup in
 * {@code .toon-memory/memory/backups/} named {@code engram-<UTC time>.jsonl}, written atomically; the
 * newest {@value #KEEP} are kept.
 */
public final class ToonBackups {
    public static final int KEEP = 10;
    public static final String PREFIX = "engram-";
    public static final String SUFFIX = ".jsonl";

    private ToonBackups() {
    }

    public static Path dir(Path memoryDir) {
        return memoryDir.resolve("backups");
    }

    /** The backup written, and how many were removed to keep {@value #KEEP}. */
    public record Written(Path file, long memories, List<Path> removed) {
    }

    public static Written write(Engine engine, String zone, Path memoryDir, ExportCodec codec, Instant now) {
        return write(engine, zone, memoryDir, codec, now, null);
    }

    /**
     * As above; with {@code sealKey} (the store's key, for a store encrypted at rest) the backup is sealed in toon's form
     * ({@code iv:tag:ciphertext}), which {@link #read(Path, ExportCodec, String)} opens with the same key.
     */
    public static Written write(Engine engine, String zone, Path memoryDir, ExportCodec codec, Instant now, String sealKey) {
        Path dir = dir(memoryDir);
        String stamp = now.toString().replace(":", "-");
        Path file = dir.resolve(PREFIX + stamp + SUFFIX);
        for (int i = 2; Files.exists(file); i++) file = dir.resolve(PREFIX + stamp + "-" + i + SUFFIX);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        long[] count = new long[1];
        try {
            Files.createDirectories(dir);
            if (sealKey != null) {
                // sealed as a whole, so the lines are gathered first: nothing of them reaches the disk in the clear
                StringBuilder lines = new StringBuilder();
                engine.export(zone, r -> {
                    lines.append(codec.write(r)).append('\n');
                    count[0]++;
                });
                Files.writeString(tmp, AesGcm.sealToon(lines.toString(), UserKey.parse(sealKey, "the store key").bytes()),
                        StandardCharsets.UTF_8);
            } else {
                try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    engine.export(zone, r -> {
                        try {
                            w.write(codec.write(r));
                            w.write('\n');
                            count[0]++;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UncheckedIOException e) {
            deleteQuietly(tmp);
            throw new EngramUserException("could not write the backup " + file + ": " + e.getMessage() + "; no backup was made");
        } catch (RuntimeException e) {
            deleteQuietly(tmp); // the export refused (a store sealed by another process, say): no half-written file stays
            throw e;
        }
        List<Path> all = list(memoryDir);
        List<Path> removed = new ArrayList<>();
        for (Path old : all.subList(Math.min(KEEP, all.size()), all.size())) {
            try {
                Files.deleteIfExists(old);
                removed.add(old);
            } catch (IOException ignored) {
                // an old backup that cannot be removed stays; the next backup tries again
            }
        }
        return new Written(file, count[0], removed);
    }

    private static void deleteQuietly(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // the caller's message says what failed; a leftover .tmp is never listed as a backup
        }
    }

    /** The backups of a memory folder, newest first. */
    public static List<Path> list(Path memoryDir) {
        Path dir = dir(memoryDir);
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(PREFIX) && n.endsWith(SUFFIX);
            }).sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed()).toList();
        } catch (IOException e) {
            throw new EngramUserException("could not list " + dir + ": " + e.getMessage());
        }
    }

    /**
     * Every memory line of a plain backup (or any `engram export` file; its zone lines are passed over: a restore
     * brings memories back); a bad line fails the whole read, naming it.
     */
    public static List<ExportRecord> read(Path file, ExportCodec codec) {
        return read(file, codec, null);
    }

    /**
     * As above, and a backup sealed by memory_encrypt (toon's {@code iv:tag:ciphertext}) is opened with {@code hexKey}
     * (the store's TOON_MEMORY_KEY / ENGRAM_KEY, null when unset); without it, or with another key, nothing is read.
     */
    public static List<ExportRecord> read(Path file, ExportCodec codec, String hexKey) {
        String text;
        try {
            text = ToonData.readUtf8(file);
        } catch (IOException e) {
            throw new EngramUserException("could not read " + file + ": " + e.getMessage() + "; nothing was restored");
        }
        if (ToonData.looksEncrypted(text)) {
            if (hexKey == null || hexKey.isBlank()) {
                throw new EngramUserException(file + " is sealed (memory_encrypt encrypts the backups with the store): set "
                        + UserKey.ENV_HINT + " to the store's key to restore it; nothing was restored");
            }
            try {
                text = AesGcm.openToon(text.strip(), UserKey.parse(hexKey, "the store key").bytes());
            } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
                throw new EngramUserException(file + " does not open with this " + UserKey.ENV_HINT
                        + ": it was sealed with another key, or it is damaged; nothing was restored");
            }
        }
        List<ExportRecord> out = new ArrayList<>();
        String[] lines = text.split("\\r?\\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            try {
                if (codec.readLine(lines[i]) instanceof ExportCodec.OfMemory m) out.add(m.record());
            } catch (RuntimeException e) {
                throw new EngramUserException(file + " line " + (i + 1) + ": " + e.getMessage() + "; nothing was restored");
            }
        }
        return out;
    }
}
