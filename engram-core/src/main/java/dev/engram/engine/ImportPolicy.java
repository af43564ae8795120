package dev.engram.engine;

/**
 * What an import does with a memory the store already holds under the same id. Neither policy loses
 * content: whichever state is not kept as the memory becomes one of its versions.
 */
public enum ImportPolicy {
    /** The default: the newer state (by {@code updatedAt}) stays the memory; an older file never reverts a store. */
    KEEP_NEWER,
    /** The file's state becomes the memory even where the stored one is newer (restoring a backup on purpose). */
    REPLACE
}
