package dev.engram.error;

/** A memory, zone or edge named by the caller does not exist. */
public final class NotFoundException extends EngramUserException {
    public NotFoundException(String message) {
        super(message);
    }

    public static NotFoundException memory(String idOrKey, String zone) {
        return new NotFoundException("no memory with id or key '" + idOrKey + "' in zone '" + zone
                + "'; call recall with mode 'index' to list keys and ids");
    }
}
