package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Recent query vectors: by model and text, copies in and out, the least recently used dropped beyond the capacity. */
class RecentQueryVectorsTest {
    @Test
    void aVectorIsKeptByModelAndText() {
        RecentQueryVectors recent = new RecentQueryVectors();
        recent.put("e5", "redis auth", new float[] {1, 2});
        assertArrayEquals(new float[] {1, 2}, recent.get("e5", "redis auth"));
        assertNull(recent.get("minilm", "redis auth"), "another model's vector is never reused");
        assertNull(recent.get("e5", "redis auth error"));
    }

    @Test
    void neitherTheCallersArrayNorTheOneHandedOutIsTheKeptOne() {
        RecentQueryVectors recent = new RecentQueryVectors();
        float[] computed = {1, 2};
        recent.put("e5", "q", computed);
        computed[0] = 9;
        float[] out = recent.get("e5", "q");
        out[1] = 9;
        assertArrayEquals(new float[] {1, 2}, recent.get("e5", "q"));
    }

    @Test
    void theLeastRecentlyUsedQueryGoesFirst() {
        RecentQueryVectors recent = new RecentQueryVectors();
        for (int i = 0; i < RecentQueryVectors.CAPACITY; i++) recent.put("e5", "q" + i, new float[] {i});
        recent.get("e5", "q0"); // used again: now the most recent
        recent.put("e5", "new", new float[] {-1});
        assertEquals(RecentQueryVectors.CAPACITY, recent.size());
        assertArrayEquals(new float[] {0}, recent.get("e5", "q0"));
        assertNull(recent.get("e5", "q1"), "the least recently used was dropped");
        assertArrayEquals(new float[] {-1}, recent.get("e5", "new"));
    }
}
