package dev.engram.mcp.profile.memento;

import dev.engram.crypto.Sha256;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import java.text.Normalizer;
import java.util.Locale;

/**
 * Memento's workspaces as Engram zones. A workspace is any text compared exactly ({@code teamA}, {@code client-acme},
 * {@code 한국팀}); a zone is 1-40 lowercase ASCII characters. A workspace that is a zone name stays itself; any other
 * becomes a readable slug and six hex digits of its own text, so {@code teamA} and {@code TeamA} stay two zones and a
 * Korean name gets one of its own instead of falling into the default zone. The same name always gives the same zone,
 * in the tools and in the import.
 */
final class Workspaces {
    private Workspaces() {
    }

    static String zoneOf(String workspace) {
        String w = workspace.strip();
        try {
            return MemoryRules.newZone(MementoContext.ZONE_ARGUMENT, w);
        } catch (InvalidArgumentException notAZoneName) {
            String plain = Normalizer.normalize(w, Normalizer.Form.NFD).replaceAll("\\p{M}+", "").toLowerCase(Locale.ROOT);
            String slug = plain.replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "").replaceAll("-+$", "");
            if (slug.length() > 32) slug = slug.substring(0, 32).replaceAll("-+$", "");
            return (slug.isEmpty() ? "ws" : slug) + "-" + Sha256.hex(w, 3);
        }
    }
}
