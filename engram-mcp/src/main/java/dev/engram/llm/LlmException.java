package dev.engram.llm;

/** The model could not answer; the message names the endpoint and what to check, never the key. */
public final class LlmException extends RuntimeException {
    public LlmException(String message) {
        super(message);
    }

    public LlmException(String message, Throwable cause) {
        super(message, cause);
    }
}
