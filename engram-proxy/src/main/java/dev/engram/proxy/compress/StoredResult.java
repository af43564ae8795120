package dev.engram.proxy.compress;

import java.util.List;
import java.util.Optional;

/** An original upstream result kept for follow-up calls, with the sections it was cut into. */
public record StoredResult(String key, String server, String tool, String original, List<Section> sections) {
    public StoredResult {
        sections = List.copyOf(sections);
    }

    public Optional<Section> section(String id) {
        return sections.stream().filter(s -> s.id().equals(id)).findFirst();
    }
}
