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
 * {@code recoverUpstreamDescription} (memtomem-stm's {@code recover_upstream_description}, off by
 * default) lets {@code stm_proxy_describe_tool(part="upstream_description")} return the text a
 * {@code description_override} replaced: an override may exist to keep a misleading upstream text
 * from the model, so handing it back takes the operator's say-so.
 */
public record ProxyConfig(List<UpstreamConfig> upstreams, boolean surfacingEnabled, boolean advertiseContextQuery,
                          boolean recoverUpstreamDescription) {
    public ProxyConfig(List<UpstreamConfig> upstreams) {
        this(upstreams, true);
    }

    public ProxyConfig(List<UpstreamConfig> upstreams, boolean surfacingEnabled) {
        this(upstreams, surfacingEnabled, false);
    }

    public ProxyConfig(List<UpstreamConfig> upstreams, boolean surfacingEnabled, boolean advertiseContextQuery) {
        this(upstreams, surfacingEnabled, advertiseContextQuery, false);
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
        return new ProxyConfig(all, surfacingEnabled, advertiseContextQuery, recoverUpstreamDescription);
    }

    public ProxyConfig without(String name) {
        if (find(name).isEmpty()) {
            throw new NotFoundException("no upstream named '" + name + "'; `engram proxy list` shows them");
        }
        return new ProxyConfig(upstreams.stream().filter(u -> !u.name().equals(name)).toList(), surfacingEnabled,
                advertiseContextQuery, recoverUpstreamDescription);
    }

    /** This config with the named upstream replaced by {@code changed} (same name), in place. */
    public ProxyConfig replacing(UpstreamConfig changed) {
        if (find(changed.name()).isEmpty()) {
            throw new NotFoundException("no upstream named '" + changed.name() + "'; `engram proxy list` shows them");
        }
        return new ProxyConfig(upstreams.stream().map(u -> u.name().equals(changed.name()) ? changed : u).toList(), surfacingEnabled,
                advertiseContextQuery, recoverUpstreamDescription);
    }

    public ProxyConfig withSurfacing(boolean enabled) {
        return new ProxyConfig(upstreams, enabled, advertiseContextQuery, recoverUpstreamDescription);
    }

    public ProxyConfig withContextQuery(boolean advertise) {
        return new ProxyConfig(upstreams, surfacingEnabled, advertise, recoverUpstreamDescription);
    }

    public ProxyConfig withUpstreamDescriptionRecovery(boolean recover) {
        return new ProxyConfig(upstreams, surfacingEnabled, advertiseContextQuery, recover);
    }
}
