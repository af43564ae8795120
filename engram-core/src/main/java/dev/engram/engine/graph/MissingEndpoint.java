package dev.engram.engine.graph;

/** What {@link EntityGraph#relate} does when a relation names an entity that does not exist. */
public enum MissingEndpoint {
    /** Refuse the whole call, naming the entity (nothing is written). */
    FAIL,
    /** Create the entity, with type {@value EntityGraph#UNKNOWN_TYPE} and no observations. */
    CREATE_UNKNOWN
}
