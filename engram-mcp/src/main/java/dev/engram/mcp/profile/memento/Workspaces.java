package dev.engram.mcp.profile.memento;

import dev.engram.memory.ZoneNames;

/**
 * Memento's workspaces as Engram zones ({@link ZoneNames}): a workspace that is a zone name stays itself, any other
 * becomes a slug and six hex digits of its text ({@code ws-…} when no slug is left, as {@code 한국팀}). The same name
 * always gives the same zone, in the tools and in the import.
 */
final class Workspaces {
    /** What stands in for the slug of a workspace without ASCII letters: stores already hold zones named so. */
    private static final String FALLBACK = "ws";

    private Workspaces() {
    }

    static String zoneOf(String workspace) {
        return ZoneNames.of(workspace, FALLBACK);
    }
}
