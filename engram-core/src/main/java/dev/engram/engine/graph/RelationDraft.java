package dev.engram.engine.graph;

/**
 * A relation to add or remove: entity names, each in its zone (null means the call's zone), and the
 * caller's free-text relation type ("works_at"), kept exactly.
 */
public record RelationDraft(String fromZone, String from, String toZone, String to, String type) {
    /** Both ends in the call's zone. */
    public static RelationDraft of(String from, String to, String type) {
        return new RelationDraft(null, from, null, to, type);
    }
}
