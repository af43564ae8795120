package dev.engram.proxy.upstream;

import java.util.function.Consumer;

/**
 * Where an upstream's {@code notifications/resources/updated} go. The SDK's client is built before the
 * session that owns it, so the session plugs its listener in here afterwards; an update that comes
 * before any listener concerns a subscription nobody has made through this session yet and is dropped.
 */
final class ResourceUpdates {
    private volatile Consumer<String> listener;

    void updated(String uri) {
        Consumer<String> l = listener;
        if (l != null && uri != null) l.accept(uri);
    }

    void listen(Consumer<String> l) {
        listener = l;
    }
}
