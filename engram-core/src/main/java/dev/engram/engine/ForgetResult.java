package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;

/** The memory as it was before ({@code HARD}) or is now (other actions), and its previous status. */
public record ForgetResult(Memory memory, ForgetAction action, MemoryStatus previousStatus) {
}
