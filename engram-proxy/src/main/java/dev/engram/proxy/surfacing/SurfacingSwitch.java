package dev.engram.proxy.surfacing;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.UpstreamConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * proxy.json's surfacing switches (the file's and each upstream's), followed while the proxy runs:
 * {@code engram proxy surfacing off} takes effect on the next call, not at the next start. The file
 * is looked at no more than once a second, and read again only when its modification time changed;
 * an edit that cannot be read keeps the last good switches (logged once per edit), so a half-saved
 * file never switches surfacing on or off by accident.
 */
public final class SurfacingSwitch {
    private static final Logger log = LoggerFactory.getLogger(SurfacingSwitch.class);
    private static final long CHECK_EVERY_MILLIS = 1000;

    private final Path file;
    private final Supplier<ProxyConfig> loader;
    private final Clock clock;
    // guarded by this
    private ProxyConfig current;
    private FileTime seen;
    private long nextCheck;

    /** Follows {@code file}, read with {@code loader}; {@code initial} is what the proxy started with. */
    public SurfacingSwitch(Path file, Supplier<ProxyConfig> loader, ProxyConfig initial, Clock clock) {
        this.file = file;
        this.loader = loader;
        this.clock = clock;
        this.current = initial;
        this.seen = modified();
        this.nextCheck = clock.millis() + CHECK_EVERY_MILLIS;
    }

    /** Always on: for pipelines without a proxy.json (tests, benchmarks). */
    public static SurfacingSwitch alwaysOn() {
        return new SurfacingSwitch(null, null, ProxyConfig.empty(), Clock.systemUTC());
    }

    /** Why surfacing is off for a call to {@code server} ({@code "off"}, {@code "off_for_server"}), or null when it is on. */
    public synchronized String offReason(UpstreamConfig server) {
        refresh();
        if (!current.surfacingEnabled()) return "off";
        UpstreamConfig now = current.find(server.name()).orElse(server);
        return now.surfacing() ? null : "off_for_server";
    }

    private void refresh() {
        if (file == null) return;
        long now = clock.millis();
        if (now < nextCheck) return;
        nextCheck = now + CHECK_EVERY_MILLIS;
        FileTime m = modified();
        if (m == null ? seen == null : m.equals(seen)) return;
        seen = m;
        try {
            current = loader.get();
        } catch (RuntimeException e) {
            log.warn("proxy.json changed but cannot be read; surfacing switches stay as they were: {}", e.getMessage());
        }
    }

    private FileTime modified() {
        if (file == null) return null;
        try {
            return Files.exists(file) ? Files.getLastModifiedTime(file) : null;
        } catch (java.io.IOException e) {
            return seen;
        }
    }
}
