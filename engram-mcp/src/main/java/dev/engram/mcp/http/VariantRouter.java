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
 */
final class VariantRouter extends Handler.Sequence {
    private final String header;
    private final Handler fallback;
    private final Map<String, Handler> variants;

    VariantRouter(String header, Handler fallback, Map<String, Handler> variants) {
        this.header = header;
        this.fallback = fallback;
        this.variants = Map.copyOf(variants);
        addHandler(fallback);
        variants.values().forEach(this::addHandler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String value = header == null ? null : request.getHeaders().get(header);
        Handler target = value == null ? fallback : variants.getOrDefault(value.strip().toLowerCase(Locale.ROOT), fallback);
        return target.handle(request, response, callback);
    }
}
