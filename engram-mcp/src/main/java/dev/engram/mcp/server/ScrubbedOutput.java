package dev.engram.mcp.server;

import dev.engram.mcp.jsonrpc.ErrorMessages;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * stdout as the SDK writes it, one message per line, except that an error answer whose message
 * names Java classes (Jackson's text for params of a nested wrong shape) is rewritten to
 * {@link ErrorMessages#PLAIN} with the same id and code. Lines are held until their newline, which
 * the SDK writes in the same locked block as the message; anything that is not such an error passes
 * unchanged. Only lines containing {@code "error":} are parsed at all. Each line goes on to the
 * listener (the in-flight count), so the output is split into lines once.
 */
final class ScrubbedOutput extends FilterOutputStream {
    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] ERROR_KEY = "\"error\":".getBytes(StandardCharsets.US_ASCII);
    /** Told of every whole line written, without its newline. */
    interface LineListener {
        void written(byte[] line, int length);
    }

    private final LineListener listener;
    private ByteArrayOutputStream line = new ByteArrayOutputStream(8192);

    ScrubbedOutput(OutputStream out, LineListener listener) {
        super(out);
        this.listener = listener;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (buf[i] != '\n') continue;
            line.write(buf, start, i - start);
            emit();
            start = i + 1;
        }
        line.write(buf, start, off + len - start);
    }

    private void emit() throws IOException {
        byte[] bytes = line.toByteArray();
        // one huge answer must not pin its buffer for the rest of the session
        line = bytes.length > 1 << 20 ? new ByteArrayOutputStream(8192) : line;
        line.reset();
        byte[] scrubbed = contains(bytes, ERROR_KEY) ? scrub(bytes) : bytes;
        // the line and its newline in one write: stdout is unbuffered, so two writes were two system calls
        byte[] whole = Arrays.copyOf(scrubbed, scrubbed.length + 1);
        whole[scrubbed.length] = '\n';
        out.write(whole);
        listener.written(scrubbed, scrubbed.length);
    }

    /** The line with a plain message, or the line itself when its error message names no Java. */
    static byte[] scrub(byte[] bytes) {
        Object id = null;
        Integer code = null;
        String message = null;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return bytes;
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (name.equals("id")) {
                    id = v == JsonToken.VALUE_STRING ? p.getString() : v == JsonToken.VALUE_NUMBER_INT ? (Object) p.getLongValue() : null;
                } else if (name.equals("error") && v == JsonToken.START_OBJECT) {
                    for (JsonToken e = p.nextToken(); e == JsonToken.PROPERTY_NAME; e = p.nextToken()) {
                        String field = p.currentName();
                        JsonToken ev = p.nextToken();
                        if (field.equals("code") && ev == JsonToken.VALUE_NUMBER_INT) code = p.getIntValue();
                        if (field.equals("message") && ev == JsonToken.VALUE_STRING) message = p.getString();
                        p.skipChildren();
                    }
                    continue;
                }
                p.skipChildren();
            }
        } catch (JacksonException e) {
            return bytes;
        }
        if (code == null || !ErrorMessages.namesJava(message)) return bytes;
        return JsonRpcErrors.body(id, code, ErrorMessages.PLAIN).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) continue outer;
            }
            return true;
        }
        return false;
    }
}
