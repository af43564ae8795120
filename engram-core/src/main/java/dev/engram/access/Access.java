package dev.engram.access;

import java.util.function.Supplier;

/**
 * The rights of the call running on this thread. A transport binds its caller's {@link Grants} around
 * each call ({@link #as}); a guarded engine ({@code Engine.guarded}) reads them at every store and
 * index access through {@link #current}. Unbound means {@link Grants#NONE}: a path that forgets to
 * bind a principal is refused, not let through.
 */
public final class Access {
    private static final ThreadLocal<Grants> BOUND = new ThreadLocal<>();

    private Access() {
    }

    /** Runs {@code work} with {@code grants} bound to this thread, restoring what was bound before. */
    public static <T> T as(Grants grants, Supplier<T> work) {
        Grants before = BOUND.get();
        BOUND.set(grants == null ? Grants.NONE : grants);
        try {
            return work.get();
        } finally {
            if (before == null) BOUND.remove();
            else BOUND.set(before);
        }
    }

    /**
     * {@code work} bound to the rights of this thread (none, for a local call), for another thread to run: a store
     * that commits several callers' writes together runs them on whichever thread's turn it is.
     */
    public static <A, T> java.util.function.Function<A, T> carried(java.util.function.Function<A, T> work) {
        Grants bound = BOUND.get();
        return a -> {
            Grants before = BOUND.get();
            if (bound == null) BOUND.remove();
            else BOUND.set(bound);
            try {
                return work.apply(a);
            } finally {
                if (before == null) BOUND.remove();
                else BOUND.set(before);
            }
        };
    }

    /**
     * Whether no transport bound a caller to this thread: a local call (stdio, the command line), whose
     * user owns the machine, as opposed to an HTTP caller, whose rights are its token's.
     */
    public static boolean local() {
        return BOUND.get() == null;
    }

    /** The grants bound to this thread, or {@link Grants#NONE} when none are. */
    public static Grants current() {
        Grants g = BOUND.get();
        return g == null ? Grants.NONE : g;
    }
}
