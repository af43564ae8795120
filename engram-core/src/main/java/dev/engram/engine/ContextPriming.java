package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;

/**
 * What the caller is working on, sent with a recall so the memories around it are primed for the searches that
 * follow (Memento's {@code contextText}, its spreading activation): see {@link ContextActivation} for what is primed
 * and how. {@code session} is the caller's session (null: the anonymous one), whose priming is counted once per
 * memory within {@link ContextActivation#WINDOW}.
 */
public record ContextPriming(String text, String session) {
    /** A sentence or two; longer is not a context but a document. */
    public static final int MAX_CHARS = 2_000;

    public ContextPriming {
        text = text == null ? "" : text.strip();
        if (text.isEmpty()) {
            throw new InvalidArgumentException("context", "is blank; send a sentence or two about the work at hand, or leave it out");
        }
        if (text.length() > MAX_CHARS) {
            throw new InvalidArgumentException("context", "is " + text.length() + " characters; send at most " + MAX_CHARS
                    + " (a sentence or two about the work at hand)");
        }
        session = session == null || session.isBlank() ? null : session;
    }
}
