package dev.engram.engine;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.util.List;
import java.util.Map;

/**
 * One memory with its outgoing edges and past versions: the unit of export and import. {@code notes} are the
 * memory's {@link MemoryNotes} and {@code tagWords} the spellings of its hashed tags ({@link TagWords}), both
 * checked here (names, lengths; each word must be the word of its tag), so a bad import line is refused before
 * anything is written. Profiles' scans of a zone leave both empty ({@link Engine#records}).
 */
public record ExportRecord(Memory memory, List<Edge> edges, List<MemoryVersion> versions, Map<String, String> notes,
                           Map<String, String> tagWords) {
    public ExportRecord {
        edges = List.copyOf(edges);
        versions = List.copyOf(versions);
        notes = MemoryNotes.checked(notes);
        tagWords = TagWords.checked(memory.tags(), tagWords);
    }

    /** A record without notes or tag words. */
    public ExportRecord(Memory memory, List<Edge> edges, List<MemoryVersion> versions) {
        this(memory, edges, versions, Map.of(), Map.of());
    }
}
