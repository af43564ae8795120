package dev.engram.cli.hook;

import dev.engram.llm.LlmConfig;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One hook call sent to the resident hook daemon: the folder the hook ran in, its arguments, the
 * environment variables Engram reads ({@link #forwarded}) and the event the host wrote on stdin. On the
 * wire (what the {@code engram} launcher builds in bash, byte lengths under {@code LC_ALL=C}) it is a
 * row of netstrings ({@code LENGTH:BYTES,}): the version {@value #VERSION}, the folder, the number of
 * arguments and each argument, the number of variables and each as {@code NAME=VALUE}; every byte after
 * them is stdin.
 */
public record HookRequest(Path cwd, List<String> args, Map<String, String> env, byte[] stdin) {
    public static final String VERSION = "engram-hookd/1";
    /** More than any host sends for one tool call (Claude Code caps a tool result far below this). */
    public static final int MAX_BYTES = 32 * 1024 * 1024;

    public HookRequest {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        stdin = stdin.clone();
    }

    /**
     * Whether a variable is one the hooks read (store, zone, proxy surfacing, hook settings, the data
     * folder): the launcher forwards exactly these, the daemon runs the call with exactly these.
     */
    public static boolean forwarded(String name) {
        return name.startsWith("ENGRAM_") || name.startsWith("MEMTOMEM_") || name.startsWith("MEMORY_")
                || name.startsWith("TOON_") || name.equals("XDG_DATA_HOME") || name.equals("LOCALAPPDATA");
    }

    /**
     * The commands the daemon answers, after any global options: {@code hook post-tool}, {@code hook feedback},
     * {@code hook session-start}, {@code hook capture}, and {@code hook prompt} and {@code hook stop} when no chat
     * model is configured ({@link #answers}). Everything else is refused, and the launcher runs it in a JVM as always.
     */
    public boolean servable() {
        int hook = args.indexOf("hook");
        return hook >= 0 && hook + 1 < args.size() && answers(args.get(hook + 1), env);
    }

    /**
     * Whether the daemon answers {@code engram hook NAME} run with {@code env}. Not prompt and stop with a chat model
     * configured: they then wait on the model for seconds, longer than the launcher waits for the daemon, and a call
     * the launcher gave up on would run twice (once in the daemon, once in the JVM it falls back on), saving twice.
     * capture may run twice that way and still logs the call once: the log skips a call (same tool and input) logged
     * in the last five minutes, and the daemon runs no call the launcher has already given up on ({@link #givenUp}).
     */
    public static boolean answers(String hook, Map<String, String> env) {
        return switch (hook) {
            case "post-tool", "feedback", "session-start", "capture" -> true;
            case "prompt", "stop" -> !LlmConfig.configured(env);
            default -> false;
        };
    }

    /** The header the launcher stamps a request with: its wall clock when it sent it, in seconds since the epoch. */
    public static final String SENT_HEADER = "X-Engram-Sent";

    /**
     * Whether the launcher has given up waiting for this call by {@code nowMillis}: it sent it at {@code sent} (its
     * {@value #SENT_HEADER}; null from a client that sends none: never) and waits {@code ENGRAM_HOOK_DAEMON_TIMEOUT}
     * seconds (default 2) of {@code env}. Such a call is run by the launcher's JVM already: running it here too, once
     * the calls queued before it are done, would only do it twice.
     */
    public static boolean givenUp(String sent, Map<String, String> env, long nowMillis) {
        if (sent == null) return false;
        try {
            // bash prints EPOCHREALTIME with the locale's decimal mark
            double at = Double.parseDouble(sent.strip().replace(',', '.'));
            String t = env.getOrDefault("ENGRAM_HOOK_DAEMON_TIMEOUT", "").strip();
            double wait = t.isEmpty() ? 2 : Double.parseDouble(t);
            return Double.isFinite(at) && Double.isFinite(wait) && nowMillis > (at + wait) * 1000;
        } catch (NumberFormatException e) {
            return false; // the launcher's own wait fails on a bad timeout: it answers from the JVM anyway
        }
    }

    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        field(out, VERSION);
        field(out, cwd.toString());
        field(out, Integer.toString(args.size()));
        for (String a : args) field(out, a);
        field(out, Integer.toString(env.size()));
        for (Map.Entry<String, String> e : env.entrySet()) field(out, e.getKey() + "=" + e.getValue());
        out.writeBytes(stdin);
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        out.writeBytes((b.length + ":").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(b);
        out.write(',');
    }

    /** Reads a request; a malformed one is an IllegalArgumentException saying what is wrong. */
    public static HookRequest decode(byte[] body) {
        Reader r = new Reader(body);
        String version = r.field("version");
        if (!version.equals(VERSION)) throw new IllegalArgumentException("protocol '" + version + "' is not " + VERSION
                + "; the launcher and the daemon come from different builds");
        Path cwd = Path.of(r.field("cwd"));
        if (!cwd.isAbsolute()) throw new IllegalArgumentException("cwd '" + cwd + "' is not an absolute path");
        int n = r.count("argument count");
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) args.add(r.field("argument " + (i + 1)));
        int m = r.count("variable count");
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < m; i++) {
            String kv = r.field("variable " + (i + 1));
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("variable " + (i + 1) + " '" + kv + "' is not NAME=VALUE");
            String name = kv.substring(0, eq);
            if (forwarded(name)) env.put(name, kv.substring(eq + 1));
        }
        return new HookRequest(cwd, args, env, Arrays.copyOfRange(body, r.at, body.length));
    }

    private static final class Reader {
        private final byte[] b;
        private int at;

        Reader(byte[] b) {
            this.b = b;
        }

        String field(String what) {
            int colon = at;
            long len = 0;
            while (colon < b.length && b[colon] >= '0' && b[colon] <= '9' && colon - at < 9) len = len * 10 + (b[colon++] - '0');
            if (colon == at || colon >= b.length || b[colon] != ':') {
                throw new IllegalArgumentException(what + " at byte " + at + " is not a netstring (LENGTH:BYTES,)");
            }
            int start = colon + 1;
            if (start + len >= b.length + 0L || b[(int) (start + len)] != ',') {
                throw new IllegalArgumentException(what + " at byte " + at + " is cut short or lacks its closing comma");
            }
            at = (int) (start + len) + 1;
            return new String(b, start, (int) len, StandardCharsets.UTF_8);
        }

        int count(String what) {
            String s = field(what);
            if (!s.matches("\\d{1,4}")) throw new IllegalArgumentException(what + " '" + s + "' is not a number up to 9999");
            return Integer.parseInt(s);
        }
    }
}
