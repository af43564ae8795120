package dev.engram.memory;

import dev.engram.analysis.Words;
import dev.engram.crypto.Sha256;
import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/**
 * Another system's name for a space of memories (a Memento workspace, a brain-tools zone) as an Engram zone. Those
 * names are any text ({@code teamA}, {@code 한국팀}, {@code all}); a zone is 1-40 lowercase ASCII characters and not
 * reserved. A name that is a zone name stays itself; any other becomes a readable slug and six hex digits of its own
 * text, so {@code teamA} and {@code TeamA} stay two zones and a Korean name gets one of its own instead of falling into
 * the default zone. The same name always gives the same zone, so tools and imports agree without a lookup table.
 */
public final class ZoneNames {
    private ZoneNames() {
    }

    /** The zone for {@code name} (stripped); {@code fallback} stands in for a slug when no ASCII letter or digit is left. */
    public static String of(String name, String fallback) {
        String w = name.strip();
        try {
            return MemoryRules.newZone("zone", w);
        } catch (InvalidArgumentException notAZoneName) {
            String plain = Words.withoutAccents(w).toLowerCase(Locale.ROOT);
            String slug = plain.replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "").replaceAll("-+$", "");
            if (slug.length() > 32) slug = slug.substring(0, 32).replaceAll("-+$", "");
            return (slug.isEmpty() ? fallback : slug) + "-" + Sha256.hex(w, 3);
        }
    }
}
