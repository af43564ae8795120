package dev.engram.cli.install;

/**
 * What taking init's entry out of a config file's text gave: {@code text} is the new text (null: nothing to
 * remove); {@code edited} says what the entry is now when it is no longer the one init wrote (then nothing is
 * removed). The TOML and YAML editors answer this way.
 */
public record TextRemoval(String text, String edited) {
}
