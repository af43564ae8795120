package dev.engram.proxy.config;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The upstream servers the proxy fronts. Names and prefixes are unique: a duplicate is refused
 * when it is added, not discovered at the next start (memtomem-stm pain point #654).
 * {@code surfacingEnabled} is the file's switch for memories under results ({@code engram proxy
 * surfacing on|off}); each upstream has its own as well, and surfacing happens only where both
 * (and {@code ENGRAM_PROXY_SURFACING__ENABLED}) are on. {@code advertiseContextQuery} (memtomem-stm's
 * {@code advertise_context_query}) adds an optional {@code _context_query} string to every proxied
 * tool's input schema: the proxy strips it before the upstream call and searches memories with it.
 */
public record ProxyConfig(List<UpstreamConfig> upstreams, boolean surfacingEnabled, boolean advertiseContextQuery) {
    public ProxyConfig(List<UpstreamConfig> upstreams) {
        this(upstreams, true);
    }

    public ProxyConfig(List<UpstreamConfig> upstreams, boolean surfacingEnabled) {
        this(upstreams, surfacingEnabled, false);
    }

    public ProxyConfig {
        upstreams = List.copyOf(upstreams);
        Set<String> names = new HashSet<>();
        Set<String> prefixes = new HashSet<>();
        for (UpstreamConfig u : upstreams) {
            if (!names.add(u.name())) throw new ConflictException("upstream name '" + u.name() + "' is used twice");
            if (!prefixes.add(u.prefix())) {
                throw new ConflictException("prefix '" + u.prefix() + "' is used by two upstreams; each needs its own");
            }
        }
    }

    public static ProxyConfig empty() {
        return new ProxyConfig(List.of());
    }

    public Optional<UpstreamConfig> find(String name) {
        return upstreams.stream().filter(u -> u.name().equals(name)).findFirst();
    }

    public ProxyConfig with(UpstreamConfig upstream) {
        if (find(upstream.name()).isPresent()) {
            throw new ConflictException("an upstream named '" + upstream.name() + "' exists; remove it first");
        }
        List<UpstreamConfig> all = new ArrayList<>(upstreams);
        all.add(upstream);
        return new ProxyConfig(all, surfacingEnabled, advertiseContextQuery);
    }

    public ProxyConfig without(String name) {
        if (find(name).isEmpty()) {
            throw new NotFoundException("no upstream named '" + name + "'; `engram proxy list` shows them");
        }
        return new ProxyConfig(upstreams.stream().filter(u -> !u.name().equals(name)).toList(), surfacingEnabled,
                advertiseContextQuery);
    }

    /** This config with the named upstream replaced by {@code changed} (same name), in place. */
    public ProxyConfig replacing(UpstreamConfig changed) {
        if (find(changed.name()).isEmpty()) {
            throw new NotFoundException("no upstream named '" + changed.name() + "'; `engram proxy list` shows them");
        }
        return new ProxyConfig(upstreams.stream().map(u -> u.name().equals(changed.name()) ? changed : u).toList(), surfacingEnabled,
                advertiseContextQuery);
    }

    public ProxyConfig withSurfacing(boolean enabled) {
        return new ProxyConfig(upstreams, enabled, advertiseContextQuery);
    }

    public ProxyConfig withContextQuery(boolean advertise) {
        return new ProxyConfig(upstreams, surfacingEnabled, advertise);
    }
}
