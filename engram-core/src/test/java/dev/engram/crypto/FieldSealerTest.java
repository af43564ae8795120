package dev.engram.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldSealerTest {
    private static final byte[] SALT = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    private final FieldSealer sealer = FieldSealer.derive(UserKey.parse("0f".repeat(32), "the key"), SALT);

    @Test
    void textIsSealedDifferentlyEachTimeAndOpensBack() {
        String a = sealer.seal("Redis needs AUTH in prod");
        assertNotEquals(a, sealer.seal("Redis needs AUTH in prod"), "random IV");
        assertFalse(a.contains("Redis"));
        assertEquals("Redis needs AUTH in prod", sealer.open(a));
        assertNull(sealer.seal(null));
        assertEquals("", sealer.open(sealer.seal("")));
    }

    @Test
    void lookupFieldsAreEqualForEqualValuesAndEmptyStaysTheStoresNone() {
        assertEquals(sealer.sealLookup("redis-auth"), sealer.sealLookup("redis-auth"));
        assertNotEquals(sealer.sealLookup("redis-auth"), sealer.sealLookup("redis-auth2"));
        assertEquals("redis-auth", sealer.open(sealer.sealLookup("redis-auth")));
        assertEquals("", sealer.sealLookup(""));
        assertNotEquals(sealer.sealLookup("k"), FieldSealer.derive(UserKey.parse("0f".repeat(32), "k"), new byte[16]).sealLookup("k"),
                "another store's salt, another form");
    }

    @Test
    void vectorsRoundTripBitForBit() {
        float[] v = {0.5f, -0.25f, Float.MIN_VALUE, -0f, 1e-30f, Float.NaN, -1f};
        float[] sealed = sealer.sealVector(v);
        assertTrue(FieldSealer.looksSealed(sealed));
        for (int i = 1; i < sealed.length; i++) assertEquals(Math.rint(sealed[i]), sealed[i], "each carrier float is an exact integer");
        float[] back = sealer.openVector(sealed);
        assertEquals(v.length, back.length);
        for (int i = 0; i < v.length; i++) assertEquals(Float.floatToRawIntBits(v[i]), Float.floatToRawIntBits(back[i]));
        assertFalse(FieldSealer.looksSealed(new float[] {-1f, 0f, 0f}), "a unit vector never looks sealed");
    }

    @Test
    void anotherKeyFailsClosedAndTheCheckTellsKeysApart() {
        FieldSealer other = FieldSealer.derive(UserKey.parse("a1".repeat(32), "the key"), SALT);
        assertNotEquals(sealer.checkValue(), other.checkValue());
        assertEquals(sealer.checkValue(), FieldSealer.derive(UserKey.parse("0F".repeat(32), "the key"), SALT).checkValue());
        String s = sealer.seal("x");
        assertThrows(SealedStoreException.class, () -> other.open(s));
        assertThrows(SealedStoreException.class, () -> FieldSealer.PLAIN.open(s));
        assertThrows(SealedStoreException.class, () -> other.openVector(sealer.sealVector(new float[] {0.1f})));
        assertEquals(List.of("a", "b"), sealer.openTags(sealer.sealTags(List.of("a", "b"))));
    }

    @Test
    void malformedKeysAreRefusedWithoutEchoingThem() {
        EngramUserException e = assertThrows(EngramUserException.class, () -> UserKey.parse("secret-ish", "the store key"));
        assertTrue(e.getMessage().contains("64 hex") && !e.getMessage().contains("secret-ish"), e.getMessage());
        assertTrue(assertThrows(EngramUserException.class, () -> UserKey.parse(" ", "the store key")).getMessage().contains("TOON_MEMORY_KEY"));
        assertEquals("UserKey[hidden]", UserKey.parse("0f".repeat(32), "k").toString());
    }
}
