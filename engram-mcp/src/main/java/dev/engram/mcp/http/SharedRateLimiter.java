package dev.engram.mcp.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The token buckets of {@link RateLimiter}, kept in Redis so that replicas behind one balancer share one limit per
 * caller (each replica on its own lets a caller send replicas × the rate). One Lua script takes a token atomically
 * on the Redis server, with the server's clock, so the replicas' clocks need not agree. While Redis does not answer
 * ({@link RedisLink#call} is empty), this replica's own buckets decide: for that while the limit is per replica
 * again, and no request fails because Redis is away.
 */
final class SharedRateLimiter implements CallerLimiter {
    /**
     * KEYS[1] the caller's bucket; ARGV rate (tokens per microsecond), burst. Answers the microseconds until the
     * next token, 0 when one was taken. Times are whole microseconds formatted with %.0f: Lua's tostring keeps 14
     * digits, which would round a microsecond clock.
     */
    static final String TAKE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local rate = tonumber(ARGV[1])
            local burst = tonumber(ARGV[2])
            local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
            local tokens = tonumber(b[1]) or burst
            local at = tonumber(b[2]) or now
            if now > at then tokens = math.min(burst, tokens + (now - at) * rate) else now = at end
            local wait = 0
            if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate) end
            redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.0f', now))
            redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate / 1000) + 1000)
            return wait
            """;

    /** The script's SHA-1, as Redis names it: a request sends 40 characters instead of the script. */
    static final String TAKE_SHA = sha1(TAKE);

    private final RedisLink redis;
    private final String rate;
    private final String burst;
    private final CallerLimiter local;

    SharedRateLimiter(RedisLink redis, double ratePerSecond, int burst, CallerLimiter local) {
        this.redis = redis;
        this.rate = Double.toString(ratePerSecond / 1_000_000.0);
        this.burst = Integer.toString(burst);
        this.local = local;
    }

    @Override
    public long acquire(String caller) {
        List<String> keys = List.of(redis.key("rate:" + caller)), args = List.of(rate, burst);
        Optional<Object> wait = redis.call(r -> {
            try {
                return r.evalsha(TAKE_SHA, keys, args);
            } catch (JedisNoScriptException notLoadedYet) {
                return r.eval(TAKE, keys, args); // a new or restarted Redis: EVAL also caches it for the next calls
            }
        });
        if (wait.isPresent() && wait.get() instanceof Long micros) return micros == 0 ? 0 : Math.max(1, micros * 1000);
        return local.acquire(caller);
    }

    private static String sha1(String script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available in this JDK", e);
        }
    }
}
