package dev.engram.testing;

import dev.engram.error.StoreException;
import dev.engram.memory.Memory;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/** A store that fails part-way through a write, as a full disk would, to check that a failed write leaves nothing. */
public final class FailingStore {
    private FailingStore() {
    }

    /** {@code store}, except that the {@code nth} insert (counted in {@code inserts}, across writes) throws a {@link StoreException}. */
    public static MemoryStore onInsert(MemoryStore store, int nth, AtomicInteger inserts) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[]{MemoryStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("write")) {
                        @SuppressWarnings("unchecked")
                        Function<StoreTransaction, Object> work = (Function<StoreTransaction, Object>) args[0];
                        return store.write(tx -> work.apply(failing(tx, nth, inserts)));
                    }
                    return invoke(method, store, args);
                });
    }

    /**
     * {@code store}, except that a write which inserts a memory {@code which} accepts fails as it commits, as a full
     * disk would: the write's work ran, its result is never stored. A write that ends by throwing (a dry run rolling
     * itself back) is left alone.
     */
    public static MemoryStore onCommitInserting(MemoryStore store, Predicate<Memory> which) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[]{MemoryStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("write")) {
                        @SuppressWarnings("unchecked")
                        Function<StoreTransaction, Object> work = (Function<StoreTransaction, Object>) args[0];
                        return store.write(tx -> {
                            List<Memory> inserted = new ArrayList<>();
                            Object result = work.apply(recording(tx, inserted));
                            for (Memory m : inserted) {
                                if (which.test(m)) throw new StoreException("commit after inserting " + m.key() + ": disk full");
                            }
                            return result;
                        });
                    }
                    return invoke(method, store, args);
                });
    }

    private static StoreTransaction recording(StoreTransaction tx, List<Memory> inserted) {
        return (StoreTransaction) Proxy.newProxyInstance(StoreTransaction.class.getClassLoader(),
                new Class<?>[]{StoreTransaction.class}, (proxy, method, args) -> {
                    if (method.getName().equals("insert")) inserted.add((Memory) args[0]);
                    return invoke(method, tx, args);
                });
    }

    private static StoreTransaction failing(StoreTransaction tx, int nth, AtomicInteger inserts) {
        return (StoreTransaction) Proxy.newProxyInstance(StoreTransaction.class.getClassLoader(),
                new Class<?>[]{StoreTransaction.class}, (proxy, method, args) -> {
                    if (method.getName().equals("insert") && inserts.incrementAndGet() == nth) {
                        throw new StoreException("insert memory " + ((Memory) args[0]).key() + ": disk full");
                    }
                    return invoke(method, tx, args);
                });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
