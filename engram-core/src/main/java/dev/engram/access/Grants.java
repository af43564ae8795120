package dev.engram.access;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A principal's rights: one per named zone, and optionally one on every zone ({@code allZones}, null
 * for none). A zone's right is the higher of the two. Immutable.
 */
public record Grants(Map<String, Right> zones, Right allZones) {
    /** Every right on every zone: a local user (stdio), a token from ENGRAM_TOKENS or --tokens-file. */
    public static final Grants FULL = new Grants(Map.of(), Right.ADMIN);
    /** No right anywhere: what a request without a bound principal gets on a guarded engine. */
    public static final Grants NONE = new Grants(Map.of(), null);

    public Grants {
        zones = java.util.Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(zones, "zones")));
    }

    /** The right on this zone, or null for none. */
    public Right rightOn(String zone) {
        Right named = zones.get(zone);
        if (named == null) return allZones;
        if (allZones == null) return named;
        return named.includes(allZones) ? named : allZones;
    }

    public boolean can(Right needed, String zone) {
        Right r = rightOn(zone);
        return r != null && r.includes(needed);
    }

    /** Whether every zone grants {@code needed}: a store-wide answer needs no filtering. */
    public boolean everywhere(Right needed) {
        return allZones != null && allZones.includes(needed);
    }

    /** Throws {@link AccessDeniedException} unless {@code zone} grants {@code needed}. */
    public void require(Right needed, String zone) {
        if (!can(needed, zone)) throw new AccessDeniedException(needed, zone);
    }

    /** The zones among {@code candidates} this principal may read, in their order. */
    public Set<String> readable(Set<String> candidates) {
        if (everywhere(Right.READ)) return candidates;
        return candidates.stream().filter(z -> can(Right.READ, z))
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    /** For listings: {@code *:admin, team:write}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (allZones != null) b.append("*:").append(allZones.label());
        zones.forEach((z, r) -> b.append(b.length() == 0 ? "" : ", ").append(z).append(':').append(r.label()));
        return b.length() == 0 ? "(none)" : b.toString();
    }
}
