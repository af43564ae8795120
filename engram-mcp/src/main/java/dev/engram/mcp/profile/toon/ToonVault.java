package dev.engram.mcp.profile.toon;

import dev.engram.crypto.AesGcm;
import dev.engram.crypto.UserKey;
import dev.engram.error.EngramUserException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * toon-memory's secrets vault, {@code .toon-memory/memory/secrets.toon}: one line per secret
 * ({@code id|secret|key|value|file|tags|date|ttl|0|}) whose value is AES-256-GCM encrypted, and the
 * whole file encrypted again, so neither names nor values are readable without the key. The key is
 * 64 hex characters (TOON_MEMORY_KEY, else ENGRAM_KEY); without one every call fails before reading
 * or writing anything. The encrypted form is toon's ({@code iv:tag:ciphertext} in hex, a 16-byte IV),
 * so toon and Engram open each other's vault with the same key. Secrets never enter Engram's store:
 * recall, context, export and the logs cannot show them.
 */
public final class ToonVault {
    public static final String FILE = "secrets.toon";
    private final Path memoryDir;
    private final String hexKey;

    /** A secret as stored: the value still encrypted. */
    public record Secret(String id, String key, String sealedValue, String file, String tags, String date, String ttl) {
    }

    /** @param hexKey the key as given (null or blank: none) */
    public ToonVault(Path memoryDir, String hexKey) {
        this.memoryDir = memoryDir;
        this.hexKey = hexKey == null || hexKey.isBlank() ? null : hexKey.strip();
    }

    public Path file() {
        return memoryDir.resolve(FILE);
    }

    private byte[] key() {
        try {
            return UserKey.parse(hexKey, "the secrets vault's key").bytes();
        } catch (EngramUserException e) {
            throw new EngramUserException(e.getMessage() + "; nothing was read or stored");
        }
    }

    /** Every secret (values sealed); empty when there is no vault file yet. */
    public List<Secret> list() {
        byte[] key = key();
        Path f = file();
        if (!Files.isRegularFile(f)) return List.of();
        String plain;
        try {
            plain = open(Files.readString(f, StandardCharsets.UTF_8).strip(), key);
        } catch (IOException e) {
            throw new EngramUserException("could not read " + f + ": " + e.getMessage());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new EngramUserException("could not decrypt " + f + ": wrong TOON_MEMORY_KEY / ENGRAM_KEY, or the file is damaged;"
                    + " nothing was read or changed");
        }
        List<Secret> out = new ArrayList<>();
        for (String line : plain.replace("\r\n", "\n").split("\n")) {
            if (!line.startsWith("  ") || !line.contains("|")) continue;
            List<String> p = ToonFormat.split(line.strip());
            if (p.size() < 7) continue;
            out.add(new Secret(p.get(0), p.get(2), p.get(3), p.get(4), p.get(5), p.get(6), p.size() > 7 ? p.get(7) : ""));
        }
        return out;
    }

    public Optional<Secret> find(String name) {
        return list().stream().filter(s -> s.key().equals(name)).findFirst();
    }

    /** The plain value of a stored secret. */
    public String reveal(Secret s) {
        try {
            return open(s.sealedValue(), key());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new EngramUserException("could not decrypt secret '" + s.key() + "': wrong key or damaged value");
        }
    }

    /** Stores or replaces the secret {@code name}; blank file, tags and ttl keep the old ones. Returns it. */
    public Secret store(String name, String value, String file, String tags, String date, String ttl) {
        byte[] key = key();
        try (ToonLock lock = lock()) {
            return store(name, value, file, tags, date, ttl, key);
        }
    }

    private Secret store(String name, String value, String file, String tags, String date, String ttl, byte[] key) {
        List<Secret> all = new ArrayList<>(list());
        String sealed = seal(value, key);
        Secret old = all.stream().filter(s -> s.key().equals(name)).findFirst().orElse(null);
        Secret next = new Secret(old != null ? old.id() : newId(), name, sealed, pick(file, old == null ? "" : old.file()),
                pick(tags, old == null ? "" : old.tags()), date, pick(ttl, old == null ? "" : old.ttl()));
        if (old != null) all.set(all.indexOf(old), next);
        else all.add(next);
        write(all, key);
        return next;
    }

    /** Removes the secret {@code name}; false when there was none. */
    public boolean forget(String name) {
        byte[] key = key();
        try (ToonLock lock = lock()) {
            List<Secret> all = new ArrayList<>(list());
            if (!all.removeIf(s -> s.key().equals(name))) return false;
            write(all, key);
            return true;
        }
    }

    /** toon's lock on the vault file, so two processes changing it at once do not drop each other's secrets. */
    private ToonLock lock() {
        try {
            Files.createDirectories(memoryDir);
            return ToonLock.acquire(file());
        } catch (IOException e) {
            throw new EngramUserException("could not lock " + file() + ": " + e.getMessage() + "; the vault is unchanged");
        }
    }

    private void write(List<Secret> all, byte[] key) {
        StringBuilder b = new StringBuilder("version: 1\n[").append(all.size()).append("|]{id|category|key|content|file|tags|date|ttl|accessed|links}:\n");
        for (Secret s : all) {
            b.append("  ").append(String.join("|", List.of(s.id(), "secret", s.key(), s.sealedValue(), s.file(), s.tags(), s.date(), s.ttl(), "0", "")
                    .stream().map(ToonFormat::escape).toList())).append('\n');
        }
        Path f = file();
        try {
            Files.createDirectories(memoryDir);
            Path tmp = f.resolveSibling(FILE + "." + ProcessHandle.current().pid() + ".tmp");
            Files.writeString(tmp, seal(b.toString(), key), StandardCharsets.UTF_8);
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new EngramUserException("could not write " + f + ": " + e.getMessage() + "; the vault is unchanged");
        }
    }

    /** toon's sealed form: hex IV (16 bytes) ':' hex GCM tag (16 bytes) ':' hex ciphertext. */
    static String seal(String text, byte[] key) {
        return AesGcm.sealToon(text, key);
    }

    static String open(String sealed, byte[] key) throws GeneralSecurityException {
        return AesGcm.openToon(sealed, key);
    }

    private static String pick(String given, String old) {
        return given == null || given.isBlank() ? old : given.strip();
    }

    private static String newId() {
        return java.util.HexFormat.of().formatHex(AesGcm.randomBytes(4));
    }
}
