package dev.engram.spi;

/**
 * A store that can be encrypted at rest (toon's memory_encrypt / memory_decrypt). Keys are given as
 * toon gives them, 64 hex characters; they are used in memory and never stored or printed.
 */
public interface StoreEncryption {
    boolean encrypted();

    /**
     * Seals everything a user stored, in one transaction (a failure leaves the store as it was), then
     * drops what would still show it in the clear (the on-disk search index, freed database pages).
     *
     * @throws dev.engram.error.EngramUserException if it is encrypted already or the key is malformed
     */
    void encrypt(String hexKey);

    /**
     * Opens everything back into the clear, in one transaction.
     *
     * @throws dev.engram.error.EngramUserException if it is not encrypted, or the key is not its key
     */
    void decrypt(String hexKey);
}
