package dev.engram.cli;

import dev.engram.error.EngramUserException;

/** A bad setting; the message names the key, where it came from and what is allowed. */
final class ConfigException extends EngramUserException {
    ConfigException(String key, String source, String problem) {
        super(key + " (" + source + ") " + problem);
    }
}
