package dev.engram.mcp.jsonrpc;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;

/**
 * The JSON mapper the HTTP transport writes its messages with, saying errors as stdio's transport does
 * ({@link ErrorMessages#plain}): the SDK's HTTP transport has no hook between a response and its bytes but
 * this mapper (HttpServletStreamableServerTransportProvider serializes each message with
 * {@code jsonMapper.writeValueAsString}), and its answer to an unknown tool names no tool. Reading is
 * left to the mapper it wraps.
 */
public final class PlainErrorMapper implements McpJsonMapper {
    private final McpJsonMapper inner;

    private PlainErrorMapper(McpJsonMapper inner) {
        this.inner = inner;
    }

    public static McpJsonMapper around(McpJsonMapper inner) {
        return inner instanceof PlainErrorMapper ? inner : new PlainErrorMapper(inner);
    }

    private static Object plain(Object value) {
        return value instanceof JSONRPCMessage m ? ErrorMessages.plain(m) : value;
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return inner.writeValueAsString(plain(value));
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return inner.writeValueAsBytes(plain(value));
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return inner.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return inner.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return inner.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return inner.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return inner.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return inner.convertValue(fromValue, type);
    }
}
