package dev.engram.engine.graph;

/** What {@link EntityGraph#create} does with a name the zone holds already. */
public enum ExistingEntity {
    /** server-memory: the existing entity is left as it is and not returned. */
    SKIP,
    /** brain-tools: the type and review interval are updated, new observations added; it is returned. */
    MERGE,
    /** importers: the type stays, the observations it lacks are added; it is returned. */
    ADD_OBSERVATIONS
}
