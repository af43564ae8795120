package dev.engram.engine;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;

/** The edge, its two ends, and whether the call changed anything. */
public record LinkResult(Edge edge, Memory from, Memory to, boolean changed) {
}
