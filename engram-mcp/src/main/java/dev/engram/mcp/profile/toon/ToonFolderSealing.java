package dev.engram.mcp.profile.toon;

import dev.engram.crypto.AesGcm;
import dev.engram.mcp.json.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The memory folder's files that hold memories (data.toon, archive.toon, memory_backup's backups),
 * sealed in toon's own form ({@code iv:tag:ciphertext}, the same key) when the store is encrypted and
 * opened again when it is decrypted, so no copy of the memory stays readable beside the store; and
 * {@code config.json}'s {@code encrypted} flag, which is how toon-memory itself knows to decrypt
 * data.toon with TOON_MEMORY_KEY. Each file is replaced atomically.
 */
final class ToonFolderSealing {
    private static final List<String> FILES = List.of("data.toon", "archive.toon");

    private ToonFolderSealing() {
    }

    /** Seals the plain ones; returns the file names changed. */
    static List<String> seal(Path memoryDir, byte[] key) throws IOException {
        List<String> changed = new ArrayList<>();
        for (Path f : files(memoryDir)) {
            String text = ToonData.readUtf8(f);
            if (ToonData.looksEncrypted(text) || text.isBlank()) continue; // an empty file has nothing to hide
            replace(f, AesGcm.sealToon(text, key));
            changed.add(memoryDir.relativize(f).toString());
        }
        if (!changed.isEmpty() || Files.isRegularFile(memoryDir.resolve("config.json"))) setFlag(memoryDir, true);
        return changed;
    }

    /** Opens the ones sealed with {@code key}; one sealed with another key is left as it is and named. */
    static List<String> open(Path memoryDir, byte[] key, List<String> notOpened) throws IOException {
        List<String> changed = new ArrayList<>();
        for (Path f : files(memoryDir)) {
            String text = ToonData.readUtf8(f);
            if (!ToonData.looksEncrypted(text)) continue;
            try {
                replace(f, AesGcm.openToon(text.strip(), key));
                changed.add(memoryDir.relativize(f).toString());
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                notOpened.add(memoryDir.relativize(f).toString());
            }
        }
        if (Files.isRegularFile(memoryDir.resolve("config.json"))) setFlag(memoryDir, notOpened.contains("data.toon")); // still encrypted only if data.toon stayed sealed
        return changed;
    }

    private static List<Path> files(Path memoryDir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String name : FILES) {
            Path f = memoryDir.resolve(name);
            if (Files.isRegularFile(f)) out.add(f);
        }
        Path backups = ToonBackups.dir(memoryDir);
        if (Files.isDirectory(backups)) {
            try (Stream<Path> s = Files.list(backups)) {
                s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".tmp")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /** toon's config.json with {@code encrypted} set; its other settings kept. */
    private static void setFlag(Path memoryDir, boolean encrypted) throws IOException {
        Path config = memoryDir.resolve("config.json");
        Map<String, Object> settings = new LinkedHashMap<>();
        if (Files.isRegularFile(config)) {
            try {
                settings.putAll(JsonText.standard().readObject(Files.readString(config, StandardCharsets.UTF_8)));
            } catch (RuntimeException e) {
                throw new IOException(config + " is not a JSON object (" + e.getMessage() + "); it was left as it is,"
                        + " set \"encrypted\": " + encrypted + " in it by hand for toon-memory");
            }
        }
        settings.put("encrypted", encrypted);
        replace(config, JsonText.standard().write(settings));
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".engram-tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
