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
 */
public record ProxyConfig(List<UpstreamConfig> upstreams) {
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
        return new ProxyConfig(all);
    }

    public ProxyConfig without(String name) {
        if (find(name).isEmpty()) {
            throw new NotFoundException("no upstream named '" + name + "'; `engram proxy list` shows them");
        }
        return new ProxyConfig(upstreams.stream().filter(u -> !u.name().equals(name)).toList());
    }
}
