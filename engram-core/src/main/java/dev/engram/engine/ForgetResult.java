package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import java.time.Instant;

/**
 * The memory as it was before ({@code HARD}) or is now (other actions), and its previous status
 * ({@code null} when restore brought back a hard-deleted memory). {@code restorableUntil} is set for
 * {@code HARD} only: until then restore undoes the deletion. {@code note} says what a restore could not
 * bring back as it was (empty when nothing).
 */
public record ForgetResult(Memory memory, ForgetAction action, MemoryStatus previousStatus, Instant restorableUntil,
                           String note) {
    public ForgetResult {
        note = note == null ? "" : note;
    }

    public ForgetResult(Memory memory, ForgetAction action, MemoryStatus previousStatus) {
        this(memory, action, previousStatus, null, "");
    }
}
