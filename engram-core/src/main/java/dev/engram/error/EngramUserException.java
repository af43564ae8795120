package dev.engram.error;

/**
 * A problem the caller can fix. Its message is shown to the agent verbatim, so it names what was
 * wrong and what to send instead. Failures of our own (storage, index) are {@link StoreException}.
 */
public class EngramUserException extends RuntimeException {
    public EngramUserException(String message) {
        super(message);
    }
}
