package dev.engram.error;

/**
 * Storage or index failure: our fault, never the caller's. The message names the operation. Not final only for
 * {@link StoreUnavailableException}, the one failure a caller is told about because waiting fixes it.
 */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
