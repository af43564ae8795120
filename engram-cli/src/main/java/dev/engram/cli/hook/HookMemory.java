package dev.engram.cli.hook;

import dev.engram.rank.Freshness;
import java.util.List;

/** What the hooks need from the memory: ranked entities for a prompt, and saving what a turn taught. */
public interface HookMemory {
    /** An entity recalled for a prompt, with up to a few of its observations. */
    record Recalled(String name, String entityType, Freshness freshness, List<String> observations) {
        public Recalled {
            observations = List.copyOf(observations);
        }
    }

    /** An entity the model chose to save. */
    record SaveItem(String name, String entityType, List<String> observations, int reviewIntervalDays) {
        public SaveItem {
            observations = List.copyOf(observations);
        }
    }

    /** Up to {@code max} entities of the zone for the query, best first. */
    List<Recalled> recall(String zone, String query, int max);

    /** Names of up to {@code max} existing entities related to the text (the model must not save them again). */
    List<String> related(String zone, String text, int max);

    /** Creates or extends the entities; returns how many observations were new. */
    int save(String zone, List<SaveItem> items);

    /** Verifies the named entity; false when there is none. */
    boolean verify(String zone, String name);
}
