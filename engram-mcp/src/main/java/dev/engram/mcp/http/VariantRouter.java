package dev.engram.mcp.http;

import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Hands each request to the servlet context of the variant its header names, else to the default one. A
 * header naming no variant also goes to the default context, where {@link VariantHeaderFilter} refuses it after
 * authentication, so an unauthenticated caller learns nothing, not even that variants exist.
 *
 * <p>A session keeps the variant it was opened in: a request carrying the {@code Mcp-Session-Id} a variant's
 * server gave goes back to that server whatever its header says. A client that sends the header only with
 * {@code initialize}, or sends another one later, would otherwise reach a server that never heard of the session
 * and be told "Session not found".
 */
final class VariantRouter extends Handler.Sequence {
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    /** Sessions remembered, oldest forgotten first: far more than one server holds open. */
    private static final int MAX_SESSIONS = 10_000;
    private final String header;
    private final Handler fallback;
    private final Map<String, Handler> variants;
    private final Map<String, Handler> sessions = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Handler> eldest) {
                    return size() > MAX_SESSIONS;
                }
            });

    VariantRouter(String header, Handler fallback, Map<String, Handler> variants) {
        this.header = header;
        this.fallback = fallback;
        this.variants = Map.copyOf(variants);
        addHandler(fallback);
        variants.values().forEach(this::addHandler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String session = request.getHeaders().get(SESSION_HEADER);
        Handler opened = session == null ? null : sessions.get(session);
        if (opened != null) return opened.handle(request, response, callback);
        String value = header == null ? null : request.getHeaders().get(header);
        Handler target = value == null ? fallback : variants.getOrDefault(value.strip().toLowerCase(Locale.ROOT), fallback);
        if (session != null || target == fallback) return target.handle(request, response, callback);
        // an initialize answered by a variant names the session it opened; it is remembered before the first byte
        // of the answer leaves, so the client's next request, however quick, finds it
        return target.handle(request, new Response.Wrapper(request, response) {
            private volatile boolean seen;

            @Override
            public void write(boolean last, java.nio.ByteBuffer content, Callback written) {
                if (!seen) {
                    seen = true;
                    String opened2 = getHeaders().get(SESSION_HEADER);
                    if (opened2 != null) sessions.put(opened2, target);
                }
                super.write(last, content, written);
            }
        }, callback);
    }
}
