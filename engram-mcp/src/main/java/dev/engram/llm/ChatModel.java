package dev.engram.llm;

/**
 * A chat model that answers one prompt with text. Implementations throw {@link LlmException} when
 * the model cannot answer (down, slow, refused); callers that have a deterministic path take it then.
 */
public interface ChatModel {
    String complete(ChatPrompt prompt);

    /** Model and endpoint for logs and messages; never the key. */
    String describe();
}
