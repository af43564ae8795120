package dev.engram.access;

import dev.engram.crypto.Sha256;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The principals of a store, kept in one store-wide mark ({@link #MARK}) so every process and replica
 * on the store shares them: {@code engram tokens add|list|revoke} change it in one transaction, and a
 * running server re-reads it at most {@code ttl} after its last read, so a revocation takes effect
 * within that time without a restart. The mark holds names, token digests, rights and creation times,
 * one principal per line: {@code name TAB sha256-hex TAB created TAB all-zones-right-or-'-' TAB zone:right,...}.
 */
public final class Principals {
    /** The mark holding every principal; hidden from and unwritable through {@link GuardedStore}. */
    public static final String MARK = "access/principals";
    /** How long a server trusts what it last read. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(2);
    private static final String TOKEN_PREFIX = "engram_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final MemoryStore store;
    private final Clock clock;
    private final Duration ttl;
    private volatile Snapshot snapshot;
    private CompletableFuture<Snapshot> rereading; // guarded by this
    private long changes; // guarded by this: adds and revokes made by this process
    /** How long a caller waits for a re-read before the principals last read answer for it. */
    static final Duration REREAD_WAIT = Duration.ofMillis(500);
    private static final java.util.concurrent.Executor REREADER = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "engram-principals");
        t.setDaemon(true);
        return t;
    });

    private record Snapshot(List<Principal> principals, Instant readAt) {
    }

    /** A principal just made and its token, which exists nowhere else. */
    public record Issued(Principal principal, String token) {
    }

    public Principals(MemoryStore store, Clock clock, Duration ttl) {
        this.store = store;
        this.clock = clock;
        this.ttl = ttl;
    }

    public Principals(MemoryStore store) {
        this(store, Clock.systemUTC(), DEFAULT_TTL);
    }

    /** Makes a principal named {@code name} with these rights and a new random token. */
    public Issued add(String name, Grants grants) {
        String n = name == null ? "" : name.strip();
        if (!Principal.NAME.matcher(n).matches()) {
            throw new InvalidArgumentException("name", "'" + n + "' is not a principal name: use 1-64 lowercase letters,"
                    + " digits, '.', '_' or '-', starting with a letter or digit (e.g. ci-bot)");
        }
        if (grants.zones().isEmpty() && grants.allZones() == null) {
            throw new InvalidArgumentException("zone", "a principal needs at least one right: --zone ZONE:read|write|admin"
                    + " (repeatable) or --all-zones read|write|admin");
        }
        grants.zones().keySet().forEach(z -> MemoryRules.zone("zone", z));
        String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes());
        Principal p = new Principal(n, sha256Hex(token), grants, clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        store.write(tx -> {
            Map<String, Principal> all = parse(tx.mark(MARK).orElse(""));
            if (all.containsKey(n)) {
                throw new InvalidArgumentException("name", "a principal named '" + n + "' exists already; revoke it first"
                        + " (engram tokens revoke " + n + ") or choose another name");
            }
            all.put(n, p);
            tx.putMark(MARK, format(all.values()));
            return null;
        });
        forget();
        return new Issued(p, token);
    }

    /** Removes the principal; its token stops working on every server within the cache time. */
    public void revoke(String name) {
        String n = name == null ? "" : name.strip();
        store.write(tx -> {
            Map<String, Principal> all = parse(tx.mark(MARK).orElse(""));
            if (all.remove(n) == null) {
                throw new NotFoundException("no principal named '" + n + "'; engram tokens list shows them");
            }
            tx.putMark(MARK, format(all.values()));
            return null;
        });
        forget();
    }

    /** After a change made here: the next caller reads the principals again, and a re-read begun before is dropped. */
    private synchronized void forget() {
        changes++;
        snapshot = null;
    }

    /** Every principal, by name, read now (no cache). */
    public List<Principal> list() {
        return List.copyOf(parse(store.mark(MARK).orElse("")).values());
    }

    /**
     * The principal holding {@code token}, from a copy at most {@code ttl} old. Every digest is compared
     * in constant time without stopping at a match, so timing tells nothing about which tokens exist.
     */
    public Optional<Principal> authenticate(String token) {
        if (token == null || token.isEmpty()) return Optional.empty();
        byte[] presented = Sha256.of(token);
        Principal found = null;
        for (Principal p : current()) {
            if (MessageDigest.isEqual(HexFormat.of().parseHex(p.tokenSha256()), presented) && found == null) found = p;
        }
        return Optional.ofNullable(found);
    }

    private List<Principal> current() {
        Snapshot s = snapshot;
        Instant now = clock.instant();
        if (s == null) {
            // nothing read yet (or revoked here): the store answers, or the caller learns it is away
            s = new Snapshot(list(), now);
            snapshot = s;
            return s.principals();
        }
        if (now.isBefore(s.readAt().plus(ttl)) && !now.isBefore(s.readAt())) return s.principals();
        CompletableFuture<Snapshot> reading = reread(s);
        try {
            return reading.get(REREAD_WAIT.toMillis(), TimeUnit.MILLISECONDS).principals();
        } catch (TimeoutException slow) {
            // the store is slow or away: the principals last read stand until it answers (nothing can change them
            // meanwhile), and no caller waits out the pool's connection timeout for them
            return s.principals();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof dev.engram.error.StoreUnavailableException) return s.principals();
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return s.principals();
        }
    }

    /**
     * One re-read at a time, on a thread of its own, so a store that does not answer holds no caller longer than
     * {@link #REREAD_WAIT}; its result replaces the snapshot, and a failure puts the next try a ttl later.
     */
    private synchronized CompletableFuture<Snapshot> reread(Snapshot stale) {
        if (rereading != null && !rereading.isDone()) return rereading;
        long started = changes;
        // the returned stage completes once the snapshot is replaced, so a caller that got it sees the new one
        rereading = CompletableFuture.supplyAsync(() -> new Snapshot(list(), clock.instant()), REREADER)
                .whenComplete((fresh, failure) -> {
                    synchronized (this) {
                        // an add or revoke in this process since the read started is newer than what it read
                        if (changes != started) return;
                        if (fresh != null) snapshot = fresh;
                        else if (snapshot == stale) snapshot = new Snapshot(stale.principals(), clock.instant());
                    }
                });
        return rereading;
    }

    static Map<String, Principal> parse(String text) {
        Map<String, Principal> all = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            String[] f = line.split("\t", -1);
            if (f.length != 5) throw new IllegalStateException("the principals mark has a malformed line");
            Map<String, Right> zones = new LinkedHashMap<>();
            if (!f[4].isEmpty()) {
                for (String zr : f[4].split(",")) {
                    int colon = zr.lastIndexOf(':');
                    zones.put(zr.substring(0, colon), Right.parse(zr.substring(colon + 1)));
                }
            }
            Right all0 = f[3].equals("-") ? null : Right.parse(f[3]);
            all.put(f[0], new Principal(f[0], f[1], new Grants(zones, all0), Instant.parse(f[2])));
        }
        return all;
    }

    static String format(java.util.Collection<Principal> principals) {
        List<String> lines = new ArrayList<>();
        principals.stream().sorted(java.util.Comparator.comparing(Principal::name)).forEach(p -> {
            List<String> zones = new ArrayList<>();
            p.grants().zones().forEach((z, r) -> zones.add(z + ":" + r.label()));
            lines.add(String.join("\t", p.name(), p.tokenSha256(), p.created().toString(),
                    p.grants().allZones() == null ? "-" : p.grants().allZones().label(), String.join(",", zones)));
        });
        return String.join("\n", lines);
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return b;
    }

    public static String sha256Hex(String token) {
        return Sha256.hex(token);
    }
}
