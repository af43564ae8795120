package dev.engram.crypto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Seals and opens the store's fields while it is encrypted at rest; {@link #PLAIN} leaves them as
 * they are. Text is AES-256-GCM with a random IV ({@code ~e1:} + base64), except the fields the store
 * looks rows up by (keys, names, edge labels): those are sealed deterministically ({@code ~d1:}, the
 * IV is an HMAC of the text), so equal keys give equal sealed values and the store's unique indexes
 * and lookups keep working without the clear key. Vectors are sealed bytes carried in floats (three
 * bytes per float, each an exact integer, so no float conversion can change them).
 * <p>Both keys are derived from the user's key and the store's salt (kept in the clear), so the
 * user's key itself touches nothing on disk; {@link #checkValue()} tells a wrong key before
 * anything is read or written.
 */
public final class FieldSealer {
    public static final FieldSealer PLAIN = new FieldSealer(null, null, null);
    static final String RANDOM_PREFIX = "~e1:";
    static final String DETERMINISTIC_PREFIX = "~d1:";
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    private final byte[] encKey;
    private final byte[] ivKey;
    private final String check;

    private FieldSealer(byte[] encKey, byte[] ivKey, String check) {
        this.encKey = encKey;
        this.ivKey = ivKey;
        this.check = check;
    }

    /** The sealer of a store with this salt under this key. */
    public static FieldSealer derive(UserKey key, byte[] salt) {
        byte[] k = key.bytes();
        try {
            return new FieldSealer(AesGcm.hmac(k, utf8("engram-store-encryption\u0000"), salt),
                    AesGcm.hmac(k, utf8("engram-store-lookup\u0000"), salt),
                    HexFormat.of().formatHex(AesGcm.hmac(k, utf8("engram-store-key-check\u0000"), salt)));
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    public boolean plain() {
        return encKey == null;
    }

    /** Stored in the clear beside the salt: equal for the right key, different for any other; reveals nothing of it. */
    public String checkValue() {
        if (plain()) throw new IllegalStateException("a plain store has no key check");
        return check;
    }

    /** Whether a stored value is in a sealed form (of any key). */
    public static boolean looksSealed(String value) {
        // both forms begin with '~': one char read settles almost every plain value, on every memory a recall reads
        return value != null && !value.isEmpty() && value.charAt(0) == '~'
                && (value.startsWith(RANDOM_PREFIX) || value.startsWith(DETERMINISTIC_PREFIX));
    }

    /** A field's sealed form, different each time. */
    public String seal(String value) {
        if (plain() || value == null) return value;
        return RANDOM_PREFIX + B64.encodeToString(AesGcm.seal(encKey, AesGcm.randomBytes(AesGcm.IV_BYTES), utf8(value)));
    }

    /** A lookup field's sealed form: the same for the same value, so the store can find and compare it. */
    public String sealLookup(String value) {
        if (plain() || value == null || value.isEmpty()) return value; // '' stays the store's "none"
        byte[] iv = Arrays.copyOf(AesGcm.hmac(ivKey, utf8(value)), AesGcm.IV_BYTES);
        return DETERMINISTIC_PREFIX + B64.encodeToString(AesGcm.seal(encKey, iv, utf8(value)));
    }

    /** The clear value of either sealed form; a value not sealed comes back as it is. */
    public String open(String stored) {
        if (!looksSealed(stored)) return stored;
        if (plain()) throw new SealedStoreException("a sealed value was read without the store key");
        try {
            return new String(AesGcm.open(encKey, B64D.decode(stored.substring(RANDOM_PREFIX.length()))), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new SealedStoreException("a stored value does not open with this key (wrong key, or the value is damaged)");
        }
    }

    /** Bytes sealed as a whole (iv | ciphertext | tag), e.g. a snapshot of the in-memory index. */
    public byte[] sealBytes(byte[] plain) {
        if (plain()) throw new IllegalStateException("a plain store seals nothing");
        return AesGcm.seal(encKey, AesGcm.randomBytes(AesGcm.IV_BYTES), plain);
    }

    public byte[] openBytes(byte[] sealed) throws GeneralSecurityException {
        if (plain()) throw new IllegalStateException("a plain store opens nothing");
        return AesGcm.open(encKey, sealed);
    }

    public List<String> sealTags(List<String> tags) {
        return plain() || tags == null ? tags : tags.stream().map(this::seal).toList();
    }

    public List<String> openTags(List<String> tags) {
        return tags == null || tags.stream().noneMatch(FieldSealer::looksSealed) ? tags : tags.stream().map(this::open).toList();
    }

    /** {@code [-(sealed byte count), then 3 bytes per float]}: a unit vector never starts below -1. */
    public float[] sealVector(float[] v) {
        if (plain() || v == null) return v;
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putFloat(f);
        byte[] sealed = AesGcm.seal(encKey, AesGcm.randomBytes(AesGcm.IV_BYTES), b.array());
        float[] out = new float[1 + (sealed.length + 2) / 3];
        out[0] = -sealed.length;
        for (int i = 0; i < sealed.length; i++) {
            int slot = 1 + i / 3;
            out[slot] = (float) ((int) out[slot] | (sealed[i] & 0xff) << (8 * (i % 3)));
        }
        return out;
    }

    public static boolean looksSealed(float[] v) {
        return v != null && v.length > 1 && v[0] <= -(AesGcm.IV_BYTES + AesGcm.TAG_BYTES) && v[0] == Math.rint(v[0]);
    }

    public float[] openVector(float[] stored) {
        if (!looksSealed(stored)) return stored;
        if (plain()) throw new SealedStoreException("a sealed vector was read without the store key");
        int n = (int) -stored[0];
        if (stored.length != 1 + (n + 2) / 3) throw new SealedStoreException("a stored vector is damaged");
        byte[] sealed = new byte[n];
        for (int i = 0; i < n; i++) sealed[i] = (byte) ((int) stored[1 + i / 3] >> (8 * (i % 3)));
        try {
            ByteBuffer b = ByteBuffer.wrap(AesGcm.open(encKey, sealed)).order(ByteOrder.LITTLE_ENDIAN);
            float[] out = new float[b.remaining() / Float.BYTES];
            for (int i = 0; i < out.length; i++) out[i] = b.getFloat();
            return out;
        } catch (GeneralSecurityException e) {
            throw new SealedStoreException("a stored vector does not open with this key (wrong key, or the value is damaged)");
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
