package dev.engram.proxy.surfacing;

import java.util.List;

/** Memories attached to one result: the block appended to the text, its id and the memories in it. */
public record Surfacing(String id, String block, List<String> memoryIds) {
    public Surfacing {
        memoryIds = List.copyOf(memoryIds);
    }
}
