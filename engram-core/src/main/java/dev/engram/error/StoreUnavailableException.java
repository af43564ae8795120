package dev.engram.error;

/**
 * The store cannot be reached right now (a team store's database is down, restarting or cut off): nothing the
 * caller did wrong, and a retry a few seconds later may well succeed. Its message is meant for the caller (faces
 * show it as it is, where another {@link StoreException} is only logged): it says what happened and to retry, and
 * holds the driver's reason but no stack trace, SQL or credentials.
 */
public final class StoreUnavailableException extends StoreException {
    /** {@code reason}: one line saying what failed, e.g. the driver's message; its first line is kept. */
    public StoreUnavailableException(String operation, String reason, Throwable cause) {
        super("the store is unreachable (" + operation + "): " + firstLine(reason)
                + "; retry in a few seconds (the server reconnects on its own)", cause);
    }

    private static String firstLine(String m) {
        if (m == null || m.isBlank()) return "no connection";
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).strip();
    }
}
