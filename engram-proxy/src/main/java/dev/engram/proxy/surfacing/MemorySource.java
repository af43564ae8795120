package dev.engram.proxy.surfacing;

import java.util.List;

/** Where surfaced memories come from: the Engram store in production, a fake in tests. */
@FunctionalInterface
public interface MemorySource {
    /** Best matches first; may block (the caller bounds the wait). */
    List<MemoryHit> search(String query, int limit);
}
