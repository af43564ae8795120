package dev.engram.proxy.upstream;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where an upstream's list_changed notifications go. The client is built before the session that
 * owns it, and an upstream may announce a change at once (server-everything adds tools right after
 * initialize): a change seen before anyone listens is kept and handed over when a listener comes.
 */
final class ListChanges {
    // guarded by this
    private Consumer<ListKind> listener;
    private final EnumSet<ListKind> early = EnumSet.noneOf(ListKind.class);

    void changed(ListKind kind) {
        Consumer<ListKind> l;
        synchronized (this) {
            l = listener;
            if (l == null) {
                early.add(kind);
                return;
            }
        }
        l.accept(kind);
    }

    void listen(Consumer<ListKind> l) {
        Set<ListKind> missed;
        synchronized (this) {
            listener = l;
            missed = EnumSet.copyOf(early);
            early.clear();
        }
        missed.forEach(l);
    }
}
