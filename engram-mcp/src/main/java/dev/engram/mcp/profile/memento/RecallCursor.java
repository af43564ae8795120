package dev.engram.mcp.profile.memento;

import dev.engram.crypto.Sha256;
import dev.engram.error.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * recall's page cursor (Memento's {@code nextCursor}), stateless and opaque: the search it belongs to (a fingerprint of
 * the arguments that decide what matches), the instant the first page was ranked at (so every page ranks alike, as
 * Memento's cursor keeps its anchorTime), and short hashes of every fragment already
 * returned (so a later page never repeats one, even when the first page's reads moved the ranking). A checksum makes
 * an altered or truncated cursor fail instead of silently paging wrong; it is no secret, and needs none: a forged
 * cursor can only skip fragments of the caller's own search.
 */
record RecallCursor(long search, Instant rankedAt, Set<Long> shown) {
    private static final byte VERSION = 2;
    private static final int ID_BYTES = 6, CHECK_BYTES = 4, HEAD = 1 + 8 + 8 + 2;
    private static final String AGAIN = "; send the nextCursor of the previous recall answer unchanged, or leave cursor out "
            + "for the first page";

    /** The fingerprint of a search: the arguments that decide which fragments match and how they rank, in order. */
    static long fingerprint(Object... parts) {
        StringBuilder sb = new StringBuilder("memento.recall");
        for (Object p : parts) sb.append('\u0001').append(p == null ? "\u0000" : p.toString());
        return ByteBuffer.wrap(Sha256.of(sb.toString())).getLong();
    }

    /** The short hash that stands for a fragment id in a cursor (48 bits: collisions are negligible at a few thousand). */
    static long idHash(String id) {
        byte[] d = Sha256.of("id:" + id);
        long v = 0;
        for (int i = 0; i < ID_BYTES; i++) v = (v << 8) | (d[i] & 0xff);
        return v;
    }

    boolean wasShown(String id) {
        return shown.contains(idHash(id));
    }

    String encode() {
        ByteBuffer b = ByteBuffer.allocate(HEAD + shown.size() * ID_BYTES + CHECK_BYTES);
        b.put(VERSION).putLong(search).putLong(rankedAt.toEpochMilli()).putShort((short) shown.size());
        for (long h : shown) {
            for (int i = ID_BYTES - 1; i >= 0; i--) b.put((byte) (h >>> (8 * i)));
        }
        byte[] body = new byte[b.position()];
        b.flip();
        b.get(body);
        byte[] check = Sha256.of(body);
        byte[] all = new byte[body.length + CHECK_BYTES];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(check, 0, all, body.length, CHECK_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(all);
    }

    /** The cursor {@code text} carries, checked against the search it is sent with ({@code search}). */
    static RecallCursor decode(String text, long search) {
        byte[] all;
        try {
            all = Base64.getUrlDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("cursor", "is not a recall cursor (not base64url)" + AGAIN);
        }
        if (all.length < HEAD + CHECK_BYTES) throw new InvalidArgumentException("cursor", "is not a recall cursor (too short)" + AGAIN);
        int bodyLength = all.length - CHECK_BYTES;
        byte[] check = Sha256.of(java.util.Arrays.copyOf(all, bodyLength));
        for (int i = 0; i < CHECK_BYTES; i++) {
            if (check[i] != all[bodyLength + i]) {
                throw new InvalidArgumentException("cursor", "was altered or cut short (its checksum does not match)" + AGAIN);
            }
        }
        ByteBuffer b = ByteBuffer.wrap(all, 0, bodyLength);
        if (b.get() != VERSION) throw new InvalidArgumentException("cursor", "comes from another version of recall" + AGAIN);
        long fingerprint = b.getLong();
        Instant at = Instant.ofEpochMilli(b.getLong());
        int count = b.getShort() & 0xffff;
        if (b.remaining() != count * ID_BYTES) throw new InvalidArgumentException("cursor", "is not a recall cursor (bad length)" + AGAIN);
        if (fingerprint != search) {
            throw new InvalidArgumentException("cursor", "belongs to a different search: send it with the same keywords, text, "
                    + "topic, type, depth, filters and workspace as the recall that returned it, or leave cursor out to start over");
        }
        Set<Long> shown = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            long v = 0;
            for (int j = 0; j < ID_BYTES; j++) v = (v << 8) | (b.get() & 0xff);
            shown.add(v);
        }
        return new RecallCursor(fingerprint, at, shown);
    }
}
