package dev.engram.error;

/** The request contradicts the current state (for example restoring a memory that is active). */
public final class ConflictException extends EngramUserException {
    public ConflictException(String message) {
        super(message);
    }
}
