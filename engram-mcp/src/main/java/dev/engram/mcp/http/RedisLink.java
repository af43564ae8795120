package dev.engram.mcp.http;

import dev.engram.error.EngramUserException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The team server's optional Redis ({@code engram serve --redis URL}). Nothing the server answers depends on it:
 * every use goes through {@link #call}, which gives empty instead of an exception when Redis does not answer, so
 * the caller falls back to what it does without Redis. Calls wait at most {@link #TIMEOUT}; after a failure Redis
 * is left alone for {@link #RETRY_AFTER} (a Redis that went away costs one timeout a second, not one per request),
 * and the first answer after that puts it back. Each change of state is logged once, without the URL's password.
 */
public final class RedisLink implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisLink.class);
    static final Duration TIMEOUT = Duration.ofMillis(250);
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final UnifiedJedis redis;
    private final String prefix;
    private final String shown;
    private final LongSupplier nanoTime;
    private final AtomicLong failures = new AtomicLong();
    /** After a failure, Redis is not asked before this nanoTime ({@code resting}; nanoTime has no "never" value). */
    private volatile long quietUntil;
    private volatile boolean resting;
    private volatile String problem;

    RedisLink(UnifiedJedis redis, String prefix, String shown, LongSupplier nanoTime) {
        this.redis = redis;
        this.prefix = prefix;
        this.shown = shown;
        this.nanoTime = nanoTime;
    }

    /**
     * A link to {@code url} ({@code redis://[user:password@]host[:port][/db]}, or {@code rediss://} for TLS); keys
     * start with {@code prefix} so several Engram clusters can share one Redis. Connects lazily: a Redis that is
     * down at start is reported by {@code /health} and used once it answers.
     */
    public static RedisLink connect(String url, String prefix) {
        URI uri = parse(url);
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder(uri)
                .connectionTimeoutMillis((int) TIMEOUT.toMillis()).socketTimeoutMillis((int) TIMEOUT.toMillis())
                .clientName("engram").build();
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        pool.setMaxWait(TIMEOUT);
        pool.setJmxEnabled(false);
        RedisClient client = RedisClient.builder().hostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort())
                .clientConfig(config).poolConfig(pool).build();
        return new RedisLink(client, prefix, masked(uri), System::nanoTime);
    }

    static URI parse(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new EngramUserException("the Redis URL is not a URL (" + e.getReason() + "); send redis://host:6379");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new EngramUserException("the Redis URL must start with redis:// or rediss://, got '" + masked(uri) + "'");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new EngramUserException("the Redis URL names no host; send redis://host:6379");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!path.isEmpty() && !path.equals("/") && !path.substring(1).chars().allMatch(Character::isDigit)) {
            throw new EngramUserException("the Redis URL's path must be a database number (redis://host:6379/0), got '" + path + "'");
        }
        return uri;
    }

    /** The URL without its password, for logs and {@code /health}. */
    static String masked(URI uri) {
        String user = uri.getRawUserInfo() == null ? "" : (uri.getRawUserInfo().contains(":")
                ? uri.getRawUserInfo().substring(0, uri.getRawUserInfo().indexOf(':')) + ":***@" : uri.getRawUserInfo() + "@");
        return uri.getScheme() + "://" + user + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** {@code name} under this server's prefix. */
    String key(String name) {
        return prefix + name;
    }

    /** What {@code op} answered, or empty when Redis did not (now, or within the last {@link #RETRY_AFTER}). */
    <T> Optional<T> call(Function<UnifiedJedis, T> op) {
        long now = nanoTime.getAsLong();
        if (resting && now - quietUntil < 0) return Optional.empty();
        try {
            T value = op.apply(redis);
            if (problem != null) {
                log.info("redis {}: answering again; limits are shared across replicas again", shown);
                problem = null;
            }
            return Optional.ofNullable(value);
        } catch (JedisException | IllegalStateException e) {
            failures.incrementAndGet();
            quietUntil = now + RETRY_AFTER.toNanos();
            resting = true;
            String reason = reason(e);
            if (problem == null) {
                log.warn("redis {}: {}; each replica limits on its own until it answers again", shown, reason);
            }
            problem = reason;
            return Optional.empty();
        }
    }

    /** Asks Redis now (for {@code /health}); null when it answered, else why not. */
    String probe() {
        return call(r -> r.ping()).isPresent() ? null : problem == null ? "not answering" : problem;
    }

    /** The last known state, without asking: null when up. */
    String problem() {
        return problem;
    }

    long failures() {
        return failures.get();
    }

    public String shown() {
        return shown;
    }

    private static String reason(Exception e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.length() > 160 ? m.substring(0, 160) + "…" : m;
    }

    @Override
    public void close() {
        redis.close();
    }
}
