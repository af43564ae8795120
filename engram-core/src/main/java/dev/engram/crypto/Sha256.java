package dev.engram.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, which every Java platform must provide, without the checked exception at each use. */
public final class Sha256 {
    private Sha256() {
    }

    /** The digest of {@code data}. */
    public static byte[] of(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The digest of {@code text}'s UTF-8 bytes. */
    public static byte[] of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The digest of {@code text}'s UTF-8 bytes in lower-case hex (64 digits). */
    public static String hex(String text) {
        return HexFormat.of().formatHex(of(text));
    }

    /** The first {@code bytes} bytes of {@code text}'s digest in lower-case hex ({@code 2 × bytes} digits). */
    public static String hex(String text, int bytes) {
        return HexFormat.of().formatHex(of(text), 0, bytes);
    }
}
