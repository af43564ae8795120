package dev.engram.engine.zone;

import java.util.Map;

/**
 * What a zone holds: entities (observations not counted) by type, relations touching them by label,
 * observations, and every memory (native ones included).
 */
public record ZoneStats(String zone, int entityCount, int observationCount, int relationCount, int memoryCount,
                        Map<String, Integer> entityTypes, Map<String, Integer> relationTypes) {
    public ZoneStats {
        entityTypes = Map.copyOf(entityTypes);
        relationTypes = Map.copyOf(relationTypes);
    }
}
