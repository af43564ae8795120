package dev.engram.mcp.jsonrpc;

import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
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

    /**
     * The message as sent, on either transport: an error whose text names Java classes gets {@link #PLAIN}, the SDK's
     * unknown-tool error names the tool ({@link #unknownTool}); same id and code. Anything else is returned as it is.
     */
    public static JSONRPCMessage plain(JSONRPCMessage message) {
        if (message instanceof JSONRPCResponse r && r.error() != null) {
            if (namesJava(r.error().message())) {
                return new JSONRPCResponse(r.jsonrpc(), r.id(), null, new JSONRPCError(r.error().code(), PLAIN, null));
            }
            String unknownTool = unknownTool(r.error().message(), r.error().data());
            if (unknownTool != null) {
                return new JSONRPCResponse(r.jsonrpc(), r.id(), null, new JSONRPCError(r.error().code(), unknownTool, r.error().data()));
            }
        }
        return message;
    }

    /** What the Java SDK answers for a tool it does not have, whatever the name: the name is only in the error's data. */
    static final String SDK_UNKNOWN_TOOL = "Unknown tool: invalid_tool_name";
    private static final String SDK_UNKNOWN_TOOL_DATA = "Tool not found: ";

    /**
     * The SDK's unknown-tool message with the tool the client called ({@code data} holds it), or null when
     * {@code message} is not that one. Outside probes of every profile found the fixed text naming no tool.
     */
    public static String unknownTool(String message, Object data) {
        if (!SDK_UNKNOWN_TOOL.equals(message) || !(data instanceof String d) || !d.startsWith(SDK_UNKNOWN_TOOL_DATA)) return null;
        return "Unknown tool: " + d.substring(SDK_UNKNOWN_TOOL_DATA.length()) + "; call tools/list for the tools this server has";
    }
}
