package dev.engram.proxy;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Follows proxy.json while the proxy runs (memtomem-stm reloads its file too). The file is small,
 * so it is read on every look and compared with the last text seen: an edit in place, a save by
 * rename (how editors and {@code engram proxy add} write) and two edits within one mtime tick are
 * all noticed. A valid edit is applied ({@link ProxyRuntime#apply}); an invalid one is refused with
 * the reason on stderr and in health/doctor, and the running configuration stays. A file that
 * disappears is not an edit (an editor may delete before it writes): nothing changes until it is back.
 */
public final class ProxyConfigWatcher implements AutoCloseable {
    public static final Duration EVERY = Duration.ofSeconds(1);
    /** A proxy.json this large is not a configuration (4 MiB). */
    static final long MAX_BYTES = 4L << 20;
    /** What {@link #read} gives for a file over {@link #MAX_BYTES}: never parsed. */
    private static final String TOO_LARGE = "\u0000 over " + MAX_BYTES + " bytes";

    private final ProxyConfigFile file;
    private final ProxyRuntime runtime;
    private final Consumer<String> stderr;
    private final ScheduledExecutorService timer;
    // guarded by this
    private String seen;

    /** {@code every} null: no timer, {@link #check} is called by hand (tests). */
    ProxyConfigWatcher(ProxyConfigFile file, ProxyRuntime runtime, Consumer<String> stderr, Duration every) {
        this.file = file;
        this.runtime = runtime;
        this.stderr = stderr;
        this.seen = read();
        if (every == null) {
            this.timer = null;
            return;
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-proxy-config-watch");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::checkQuietly, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts looking at {@code file} every {@link #EVERY}; what it has now is taken as what the proxy started with. */
    public static ProxyConfigWatcher start(ProxyConfigFile file, ProxyRuntime runtime, Consumer<String> stderr) {
        return new ProxyConfigWatcher(file, runtime, stderr, EVERY);
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            stderr.accept("engram proxy: looking at " + file.path() + " failed: " + e.getMessage());
        }
    }

    /** One look at the file: the reload it caused (applied or refused), or null when it did not change. */
    public synchronized ProxyRuntime.Reload check() {
        String text = read();
        if (text == null || text.equals(seen)) return null;
        seen = text;
        ProxyConfig next;
        try {
            if (text.equals(TOO_LARGE)) {
                throw new IllegalArgumentException(file.path() + " is over " + MAX_BYTES + " bytes, more than a configuration can be");
            }
            next = file.parse(text);
        } catch (RuntimeException e) {
            String why = e.getMessage();
            runtime.refused(why);
            stderr.accept("engram proxy: " + file.path() + " changed but was not applied: " + why
                    + "; the proxy keeps running with the previous configuration");
            return runtime.lastReload();
        }
        ProxyRuntime.Reload r = runtime.apply(next);
        stderr.accept("engram proxy: " + file.path() + " reloaded: " + r.summary());
        return r;
    }

    /** The file's text, or null when it is missing or unreadable now (then nothing changes). */
    private String read() {
        try {
            if (!Files.isRegularFile(file.path())) return null;
            if (Files.size(file.path()) > MAX_BYTES) return TOO_LARGE;
            return Files.readString(file.path());
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
