package dev.engram.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Sha256Test {
    /** FIPS 180-2's first example. */
    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void digestsTheUtf8BytesOfAText() {
        assertEquals(ABC, Sha256.hex("abc"));
        assertArrayEquals(Sha256.of("abc".getBytes(StandardCharsets.UTF_8)), Sha256.of("abc"));
        assertEquals(Sha256.hex("é"), java.util.HexFormat.of().formatHex(Sha256.of(new byte[] {(byte) 0xc3, (byte) 0xa9})));
    }

    @Test
    void aPrefixIsTheFirstBytesInHex() {
        assertEquals(ABC.substring(0, 8), Sha256.hex("abc", 4));
        assertEquals(ABC, Sha256.hex("abc", 32));
    }
}
