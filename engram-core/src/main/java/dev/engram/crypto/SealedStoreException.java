package dev.engram.crypto;

import dev.engram.error.EngramUserException;

/** The store is encrypted and this process cannot open it: no key, a wrong key, or a damaged value. Fails closed. */
public final class SealedStoreException extends EngramUserException {
    public SealedStoreException(String what) {
        super("the memory store is encrypted at rest (memory_encrypt) and " + what + ": start Engram with the store's key in "
                + UserKey.ENV_HINT + " (64 hex characters); nothing was read or written");
    }
}
