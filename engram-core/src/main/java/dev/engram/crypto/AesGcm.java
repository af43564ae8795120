package dev.engram.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM and HMAC-SHA256, the two primitives every encrypted thing in Engram uses: toon-memory's
 * text form ({@code iv:tag:ciphertext} in hex, 16-byte IV) for toon's files, and a compact binary form
 * ({@code iv(12) | ciphertext | tag(16)}) for the store's fields.
 */
public final class AesGcm {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TAG_BITS = 128;
    public static final int IV_BYTES = 12;
    public static final int TAG_BYTES = 16;

    private AesGcm() {
    }

    public static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** {@code iv | ciphertext | tag}, with the given 12-byte IV. */
    public static byte[] seal(byte[] key, byte[] iv, byte[] plain) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            byte[] body = cipher.doFinal(plain);
            byte[] out = new byte[iv.length + body.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(body, 0, out, iv.length, body.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JDK", e);
        }
    }

    /** Opens {@link #seal}'s form; a wrong key or a changed byte throws (GCM authenticates). */
    public static byte[] open(byte[] key, byte[] sealed) throws GeneralSecurityException {
        if (sealed.length < IV_BYTES + TAG_BYTES) throw new GeneralSecurityException("sealed value too short");
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, sealed, 0, IV_BYTES));
        return cipher.doFinal(sealed, IV_BYTES, sealed.length - IV_BYTES);
    }

    public static byte[] hmac(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] p : parts) mac.update(p);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    /** toon-memory's sealed text: hex IV (16 bytes) ':' hex GCM tag ':' hex ciphertext. */
    public static String sealToon(String text, byte[] key) {
        try {
            byte[] iv = randomBytes(16);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, iv));
            byte[] out = cipher.doFinal(text.getBytes(StandardCharsets.UTF_8));
            int n = out.length - TAG_BYTES;
            HexFormat hex = HexFormat.of();
            return hex.formatHex(iv) + ":" + hex.formatHex(out, n, out.length) + ":" + hex.formatHex(out, 0, n);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JDK", e);
        }
    }

    /** Opens {@link #sealToon}'s form (toon's own too); IllegalArgumentException when it is not that form. */
    public static String openToon(String sealed, byte[] key) throws GeneralSecurityException {
        String[] parts = sealed.split(":", -1); // an empty text seals to iv:tag: with no ciphertext
        if (parts.length != 3) throw new IllegalArgumentException("not iv:tag:ciphertext");
        HexFormat hex = HexFormat.of();
        byte[] iv = hex.parseHex(parts[0]);
        byte[] tag = hex.parseHex(parts[1]);
        byte[] body = hex.parseHex(parts[2]);
        byte[] joined = new byte[body.length + tag.length];
        System.arraycopy(body, 0, joined, 0, body.length);
        System.arraycopy(tag, 0, joined, body.length, tag.length);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(tag.length * 8, iv));
        return new String(cipher.doFinal(joined), StandardCharsets.UTF_8);
    }
}
