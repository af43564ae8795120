package dev.engram.error;

/** Storage or index failure: our fault, never the caller's. The message names the operation. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
