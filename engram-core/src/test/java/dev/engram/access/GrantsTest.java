package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GrantsTest {
    private final Grants team = new Grants(Map.of("team", Right.WRITE, "docs", Right.READ), null);

    @Test
    void rightsAreOrdered() {
        assertTrue(Right.ADMIN.includes(Right.WRITE));
        assertTrue(Right.WRITE.includes(Right.READ));
        assertFalse(Right.READ.includes(Right.WRITE));
        assertFalse(Right.WRITE.includes(Right.ADMIN));
        assertEquals(Right.WRITE, Right.parse(" Write "));
        assertNull(Right.parse("owner"));
    }

    @Test
    void aZoneGrantsItsRightAndTheOnesBelow() {
        assertTrue(team.can(Right.READ, "team"));
        assertTrue(team.can(Right.WRITE, "team"));
        assertFalse(team.can(Right.ADMIN, "team"));
        assertTrue(team.can(Right.READ, "docs"));
        assertFalse(team.can(Right.WRITE, "docs"));
        assertFalse(team.can(Right.READ, "secret"));
        assertFalse(team.everywhere(Right.READ));
    }

    @Test
    void theAllZonesRightAndANamedOneGiveTheHigher() {
        Grants g = new Grants(Map.of("ops", Right.ADMIN, "team", Right.READ), Right.WRITE);
        assertEquals(Right.ADMIN, g.rightOn("ops"));
        assertEquals(Right.WRITE, g.rightOn("team"));
        assertEquals(Right.WRITE, g.rightOn("anything-new"));
        assertTrue(g.everywhere(Right.READ));
        assertFalse(g.everywhere(Right.ADMIN));
        assertTrue(Grants.FULL.everywhere(Right.ADMIN));
        assertFalse(Grants.NONE.can(Right.READ, "default"));
    }

    @Test
    void aRefusalNamesTheRightAndTheAskedZoneOnly() {
        AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> team.require(Right.WRITE, "docs"));
        assertTrue(e.getMessage().contains("no write right on zone 'docs'"), e.getMessage());
        assertFalse(e.getMessage().contains("team"), e.getMessage());
        // an existing and an unknown zone get the same words: the answer depends on rights alone
        String forbidden = assertThrows(AccessDeniedException.class, () -> team.require(Right.READ, "secret")).getMessage();
        String unknown = assertThrows(AccessDeniedException.class, () -> team.require(Right.READ, "nowhere")).getMessage();
        assertEquals(forbidden.replace("secret", "Z"), unknown.replace("nowhere", "Z"));
    }

    @Test
    void readableKeepsTheReadableZonesInOrder() {
        Set<String> all = new LinkedHashSet<>(List.of("alpha", "docs", "secret", "team"));
        assertEquals(List.of("docs", "team"), List.copyOf(team.readable(all)));
        assertEquals(all, Grants.FULL.readable(all));
        assertEquals("docs:read, team:write", team.describe());
    }
}
