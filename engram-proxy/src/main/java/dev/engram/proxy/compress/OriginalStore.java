package dev.engram.proxy.compress;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Originals of compressed results, by result key, so {@code stm_proxy_read_more} and
 * {@code stm_proxy_select_chunks} can give them back exactly. In memory, least recently used first
 * out, bounded by count (200, memtomem-stm's progressive max_stored) and total characters, and each
 * entry lives {@link #DEFAULT_TTL} after its last use. Thread-safe.
 */
public final class OriginalStore {
    public static final int DEFAULT_MAX_ENTRIES = 200;
    /** 64 Mi chars (~128 MiB): a hard ceiling so a burst of huge results cannot exhaust the heap. */
    public static final long DEFAULT_MAX_CHARS = 64L * 1024 * 1024;
    /** 30 minutes after the last read (memtomem-stm's progressive ttl_seconds 1800). */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(30);

    private final Clock clock;
    private final Supplier<String> keys;
    private final int maxEntries;
    private final long maxChars;
    private final Duration ttl;
    // guarded by this; access order = LRU
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long chars;

    public OriginalStore(Clock clock, Supplier<String> keys, int maxEntries, long maxChars, Duration ttl) {
        this.clock = clock;
        this.keys = keys;
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
        this.ttl = ttl;
    }

    public OriginalStore(Clock clock, Supplier<String> keys) {
        this(clock, keys, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_CHARS, DEFAULT_TTL);
    }

    /** A fresh key for a result about to be stored. */
    public String newKey() {
        return keys.get();
    }

    public synchronized void put(StoredResult result) {
        Entry old = entries.remove(result.key());
        if (old != null) chars -= old.result.original().length();
        entries.put(result.key(), new Entry(result, clock.instant().plus(ttl)));
        chars += result.original().length();
        evict();
    }

    /** The stored result, its time to live renewed; empty when unknown or expired. */
    public synchronized Optional<StoredResult> get(String key) {
        Entry e = entries.get(key);
        if (e == null) return Optional.empty();
        Instant now = clock.instant();
        if (now.isAfter(e.expiresAt)) {
            entries.remove(key);
            chars -= e.result.original().length();
            return Optional.empty();
        }
        entries.put(key, new Entry(e.result, now.plus(ttl)));
        return Optional.of(e.result);
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized void clear() {
        entries.clear();
        chars = 0;
    }

    private void evict() {
        Instant now = clock.instant();
        for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Entry e = it.next().getValue();
            boolean over = entries.size() > maxEntries || chars > maxChars;
            if (over || now.isAfter(e.expiresAt)) {
                chars -= e.result.original().length();
                it.remove();
            }
        }
    }

    private record Entry(StoredResult result, Instant expiresAt) {
    }
}
