package dev.engram.error;

/**
 * The store cannot be reached right now (a team store's database is down, restarting or cut off): nothing the
 * caller did wrong, and a retry a few seconds later may well succeed. Its message is meant for the caller (faces
 * show it as it is, where another {@link StoreException} is only logged): it says what happened and to retry, and
 * holds the driver's reason but no stack trace, SQL or credentials.
 */
public final class StoreUnavailableException extends StoreException {
    public StoreUnavailableException(String operation, Throwable cause) {
        super("the store is unreachable (" + operation + "): " + reason(cause)
                + "; retry in a few seconds (the server reconnects on its own)", cause);
    }

    /** The driver's one-line reason, without anything past its first line. */
    private static String reason(Throwable cause) {
        String m = cause == null || cause.getMessage() == null ? "no connection" : cause.getMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).strip();
    }
}
