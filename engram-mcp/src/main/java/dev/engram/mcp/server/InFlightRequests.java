package dev.engram.mcp.server;

import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Keeps stdin's end-of-file back until every request read so far has been answered. The SDK's stdio
 * transport shuts down on EOF and drops responses still in flight (SDK gotcha 4), which loses the
 * answers of a script that pipes its requests and closes stdin. The guard reports each request it
 * hands to the SDK ({@link GuardedStdin}) and the output reports each line the SDK writes
 * ({@link ScrubbedOutput}): both already split and read those lines, so nothing is parsed twice. The
 * wait is bounded, so a request that never gets an answer cannot hold the process forever.
 */
final class InFlightRequests {
    private static final JsonFactory JSON = new JsonFactory();

    private final Duration maxWait;
    // guarded by this; requests forwarded and responses written since start
    private long requests;
    private long responses;

    InFlightRequests(Duration maxWait) {
        this.maxWait = maxWait;
    }

    /** A request (method and id) reached the SDK. */
    synchronized void requestForwarded() {
        requests++;
    }

    /** One whole line the SDK wrote, without its newline; counted when it is a response. */
    void written(byte[] line, int length) {
        if (requestOrResponse(line, length) != Boolean.FALSE) return;
        synchronized (this) {
            responses++;
            notifyAll();
        }
    }

    /**
     * TRUE for a request (method and id), FALSE for a response (id, then result or error), null for
     * anything else. Reads only top-level names, from the bytes as written, and stops at the result of
     * a response whose id came first (the SDK writes it so): a recall answer is 7 KB, and decoding and
     * tokenising all of it again cost as much as writing it.
     */
    static Boolean requestOrResponse(byte[] line, int length) {
        boolean method = false;
        boolean id = false;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("method")) method = true;
                if (name.equals("id")) id = value != JsonToken.VALUE_NULL;
                if (id && !method && (name.equals("result") || name.equals("error"))) return Boolean.FALSE;
                p.skipChildren();
            }
        } catch (JacksonException e) {
            return null; // not JSON: the transport reports it; nothing to count
        }
        return id ? method : null;
    }

    /** Holds end-of-input back until every forwarded request is answered, or the wait ran out. */
    synchronized void awaitAnswers() {
        long deadline = System.nanoTime() + maxWait.toNanos();
        try {
            while (responses < requests) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) return;
                wait(leftMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
