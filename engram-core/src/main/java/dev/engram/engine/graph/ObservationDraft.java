package dev.engram.engine.graph;

import java.util.List;

/** Observation texts for one entity, for the batch forms of add and delete (atomic over the batch). */
public record ObservationDraft(String entityName, List<String> texts) {
    public ObservationDraft {
        texts = texts == null ? List.of() : List.copyOf(texts);
    }
}
