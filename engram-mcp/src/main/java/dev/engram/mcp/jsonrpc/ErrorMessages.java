package dev.engram.mcp.jsonrpc;

import java.util.regex.Pattern;

/**
 * What a client may read in a JSON-RPC error the SDK wrote: never a Java class, exception or
 * stack frame. The SDK turns some failures into {@code -32603} with Jackson's exception text
 * ("tools.jackson.databind.exc.MismatchedInputException: Cannot construct instance of
 * `io.modelcontextprotocol.spec.McpSchema$ClientCapabilities$RootCapabilities`..."); such a message
 * is replaced by a plain one, on both transports.
 */
public final class ErrorMessages {
    private static final Pattern JAVA_NAMES = Pattern.compile(
            "\\b(?:java|javax|jakarta|tools\\.jackson|com\\.fasterxml|io\\.modelcontextprotocol|org\\.eclipse|reactor)\\."
                    + "|\\w+(?:Exception|Error)\\b|\\$[A-Z]|\\.java:\\d");

    /** The replacement: what the failures that produce such messages have in common. */
    public static final String PLAIN = "the request could not be read: a field has the wrong type or shape for this"
            + " method; send the params the MCP schema gives for it";

    private ErrorMessages() {
    }

    public static boolean namesJava(String message) {
        return message != null && JAVA_NAMES.matcher(message).find();
    }
}
