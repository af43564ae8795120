package dev.engram.mcp.profile.toon;

import dev.engram.crypto.UserKey;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.spi.StoreEncryption;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * toon's memory_encrypt / memory_decrypt over the store's encryption at rest ({@link StoreEncryption}):
 * the store's fields sealed, its search index kept in memory only, and the memory folder's copies
 * (data.toon, archive.toon, backups) sealed in toon's own form with the same key. The key comes from
 * TOON_MEMORY_KEY / ENGRAM_KEY (decrypt also takes it as {@code key}); it is never written or shown.
 */
final class EncryptionTools {
    private final ToonContext c;

    EncryptionTools(ToonContext c) {
        this.c = c;
    }

    private StoreEncryption encryption() {
        return c.engine().encryption().orElseThrow(() -> new EngramUserException("encryption at rest is offered by the"
                + " embedded store (SQLite) only; this server's store (PostgreSQL) is not encrypted by Engram:"
                + " use the database's own encryption at rest"));
    }

    ToonTool encrypt() {
        return new ToonTool(ToonTool.define("memory_encrypt", "Enable AES-256-GCM encryption of the memory at rest (the store,"
                + " its search index and the memory folder's files). Requires TOON_MEMORY_KEY (or ENGRAM_KEY) in the environment:"
                + " 64 hex characters; every later start needs the same key.", JsonSchema.input(),
                ToonTool.hints(false, true, true)), args -> {
            StoreEncryption store = encryption();
            if (store.encrypted()) return "Encryption is already enabled" + finishSealing();
            String key = c.envKey();
            if (key == null) {
                throw new EngramUserException("❌ Set TOON_MEMORY_KEY in environment before encrypting (64 hex characters,"
                        + " e.g. `openssl rand -hex 32`; ENGRAM_KEY works too); nothing was changed");
            }
            byte[] bytes = UserKey.parse(key, "the store key").bytes();
            store.encrypt(key);
            StringBuilder b = new StringBuilder("🔐 Encryption enabled\n  Memories, keys, tags, versions, vectors and marks are"
                    + " sealed with AES-256-GCM; the search index now lives in memory only (rebuilt at each start).\n"
                    + "  Start Engram with the same TOON_MEMORY_KEY from now on: without it the store stays closed.");
            return b.append(sealFolder(bytes, "Sealed in toon's format: ")).toString();
        });
    }

    ToonTool decrypt() {
        // toon's schema: key required; an empty one falls back to the environment's, as toon does
        var schema = JsonSchema.input().string("key", "The 64-hex key (empty: TOON_MEMORY_KEY / ENGRAM_KEY)", "0123…").required("key");
        return new ToonTool(ToonTool.define("memory_decrypt", "Disable encryption and decode memory.", schema,
                ToonTool.hints(false, true, true)), args -> {
            String given = args.textOr("key"); // a key of the wrong type is refused even when there is nothing to decrypt
            StoreEncryption store = encryption();
            String key = given != null && !given.isBlank() ? given.strip() : c.envKey();
            if (!store.encrypted()) return "Encryption is not enabled" + finishOpening(key);
            if (key == null) {
                throw new EngramUserException("❌ No key provided. Pass it as key or set TOON_MEMORY_KEY (or ENGRAM_KEY);"
                        + " the store stays encrypted");
            }
            store.decrypt(key);
            StringBuilder b = new StringBuilder("🔓 Encryption disabled\n  The store is back in the clear and its search index"
                    + " on disk again.");
            return b.append(openFolder(UserKey.parse(key, "the key").bytes(), "Decrypted: ")).toString();
        });
    }

    /**
     * A memory_encrypt stopped after the store was sealed and before the folder was (a crash, a kill): the next call
     * seals what is still in the clear, so "already enabled" is never said over a plain backup or data.toon.
     */
    private String finishSealing() {
        String key = c.envKey();
        if (key == null) return "";
        try {
            return sealFolder(UserKey.parse(key, "the store key").bytes(), "Sealed what an interrupted memory_encrypt had left in the clear: ");
        } catch (EngramUserException e) {
            return "\n  ⚠️ " + e.getMessage();
        }
    }

    /** The same for a memory_decrypt stopped after the store was opened: the folder's sealed files are opened too. */
    private String finishOpening(String key) {
        if (key == null) return "";
        try {
            return openFolder(UserKey.parse(key, "the key").bytes(), "Decrypted what an interrupted memory_decrypt had left sealed: ");
        } catch (EngramUserException e) {
            return "\n  ⚠️ " + e.getMessage();
        }
    }

    /** Seals the memory folder's files still in the clear; the answer's lines saying which (after {@code label}). */
    private String sealFolder(byte[] key, String label) {
        try {
            List<String> files = ToonFolderSealing.seal(c.memoryDir(), key);
            return files.isEmpty() ? "" : "\n  " + label + String.join(", ", files);
        } catch (IOException e) {
            return "\n  ⚠️ The store is encrypted, but a file of " + c.memoryDir() + " could not be sealed: " + e.getMessage();
        }
    }

    /** Opens the memory folder's files sealed with {@code key}; the answer's lines saying which, and which stay sealed. */
    private String openFolder(byte[] key, String label) {
        List<String> notOpened = new ArrayList<>();
        try {
            List<String> files = ToonFolderSealing.open(c.memoryDir(), key, notOpened);
            String out = files.isEmpty() ? "" : "\n  " + label + String.join(", ", files);
            return notOpened.isEmpty() ? out : out + "\n  ⚠️ Left encrypted (sealed with another key): " + String.join(", ", notOpened);
        } catch (IOException e) {
            return "\n  ⚠️ A file of " + c.memoryDir() + " is still sealed and could not be opened: " + e.getMessage();
        }
    }
}
