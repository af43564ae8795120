package dev.engram.engine;

import java.security.SecureRandom;

/** New memory ids: {@code m_} and 10 base32 characters (50 random bits; collisions are retried by the store's unique key). */
final class MemoryIds {
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
    private final SecureRandom random = new SecureRandom();

    String next() {
        char[] c = new char[12];
        c[0] = 'm';
        c[1] = '_';
        for (int i = 2; i < 12; i++) {
            c[i] = ALPHABET[random.nextInt(32)];
        }
        return new String(c);
    }
}
