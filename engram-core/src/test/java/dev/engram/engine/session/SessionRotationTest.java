package dev.engram.engine.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SessionRotationTest {
    private final AtomicInteger n = new AtomicInteger();
    private final SessionRotation ledger = new SessionRotation(() -> "issued-" + n.incrementAndGet(), 3);

    @Test
    void aRotationRoutesTheNewIdRetiresTheTransportsAndForgetsEarlierIssuedOnes() {
        assertEquals(new SessionRotation.Unrotated(), ledger.lookup("sdk-1"), "never rotated: the transport's own id");
        SessionRotation.Rotated first = ledger.rotate("sdk-1", "sdk-1", "suspected_leak");
        assertEquals(new SessionRotation.Rotated("sdk-1", "issued-1", "suspected_leak"), first);
        assertEquals(new SessionRotation.Current("sdk-1"), ledger.lookup("issued-1"));
        assertEquals(new SessionRotation.Retired(), ledger.lookup("sdk-1"));

        SessionRotation.Rotated second = ledger.rotate("sdk-1", "issued-1", null);
        assertEquals("issued-2", second.newId());
        assertEquals(SessionRotation.DEFAULT_REASON, second.reason());
        assertEquals(new SessionRotation.Current("sdk-1"), ledger.lookup("issued-2"));
        assertEquals(new SessionRotation.Unrotated(), ledger.lookup("issued-1"),
                "forgotten: the transport never knew it, so it finds no session there");
        assertEquals(new SessionRotation.Retired(), ledger.lookup("sdk-1"));
        assertEquals(1, ledger.rotated());

        ledger.ended("sdk-1");
        assertEquals(0, ledger.rotated());
        assertEquals(new SessionRotation.Unrotated(), ledger.lookup("issued-2"));
        assertEquals(new SessionRotation.Unrotated(), ledger.lookup("sdk-1"));
    }

    @Test
    void rotatingByThePresentedIdTakesOnlyAnOpenSessionsCurrentId() {
        var unknown = assertThrows(SessionRotation.UnknownSession.class, () -> ledger.rotatePresented("sdk-1", null));
        assertFalse(unknown.retired());
        assertTrue(unknown.getMessage().contains("no open session has this id"), unknown.getMessage());
        assertEquals(0, n.get(), "nothing issued for an unknown id");

        ledger.opened("sdk-1");
        assertEquals("sdk-1", ledger.currentId("sdk-1"));
        SessionRotation.Rotated first = ledger.rotatePresented("sdk-1", "suspected_leak");
        assertEquals(new SessionRotation.Rotated("sdk-1", "issued-1", "suspected_leak"), first);
        assertEquals("issued-1", ledger.currentId("sdk-1"));
        var retired = assertThrows(SessionRotation.UnknownSession.class, () -> ledger.rotatePresented("sdk-1", null));
        assertTrue(retired.retired());
        assertTrue(retired.getMessage().contains("retired by a rotation"), retired.getMessage());

        // the same ledger the tool's rotation uses: either one follows the other
        assertEquals("issued-2", ledger.rotate("sdk-1", "issued-1", null).newId());
        assertEquals("issued-3", ledger.rotatePresented("issued-2", null).newId());
        assertEquals(new SessionRotation.Current("sdk-1"), ledger.lookup("issued-3"));

        var bad = assertThrows(InvalidArgumentException.class, () -> ledger.rotatePresented("issued-3", "a\nb"));
        assertTrue(bad.getMessage().startsWith("reason has a line break"), bad.getMessage());
        assertEquals("issued-3", ledger.currentId("sdk-1"), "a refused reason rotates nothing");

        ledger.ended("sdk-1");
        assertEquals("sdk-1", ledger.currentId("sdk-1"));
        assertFalse(assertThrows(SessionRotation.UnknownSession.class, () -> ledger.rotatePresented("issued-3", null)).retired(),
                "an ended session is unknown");
    }

    @Test
    void theOpenSessionsAreBoundedOldestForgottenFirst() {
        for (String id : new String[] {"a", "b", "c", "d"}) ledger.opened(id);
        assertThrows(SessionRotation.UnknownSession.class, () -> ledger.rotatePresented("a", null));
        assertEquals("issued-1", ledger.rotatePresented("d", null).newId());
    }

    @Test
    void aStaleIdCannotRotateAgain() {
        ledger.rotate("sdk-1", "sdk-1", null);
        var e = assertThrows(EngramUserException.class, () -> ledger.rotate("sdk-1", "sdk-1", null));
        assertTrue(e.getMessage().contains("rotated already"), e.getMessage());
        assertEquals(new SessionRotation.Current("sdk-1"), ledger.lookup("issued-1"), "the first rotation stands");
        assertEquals(1, n.get(), "no id was issued for the refused one");
    }

    @Test
    void theReasonIsOneShortLine() {
        assertEquals("user_request", SessionRotation.reason("  "));
        assertEquals("token seen in a log", SessionRotation.reason(" token seen in a log "));
        var longer = assertThrows(InvalidArgumentException.class, () -> ledger.rotate("sdk-1", "sdk-1", "r".repeat(257)));
        assertEquals("reason is 257 characters; send at most 256", longer.getMessage());
        var lines = assertThrows(InvalidArgumentException.class, () -> SessionRotation.reason("a\nb"));
        assertTrue(lines.getMessage().startsWith("reason has a line break"), lines.getMessage());
        assertEquals(new SessionRotation.Unrotated(), ledger.lookup("sdk-1"), "a refused reason rotates nothing");
    }

    @Test
    void pastItsCapacityTheLedgerRefusesRatherThanForgetARetiredId() {
        for (int i = 0; i < 3; i++) ledger.rotate("sdk-" + i, "sdk-" + i, null);
        var full = assertThrows(EngramUserException.class, () -> ledger.rotate("sdk-new", "sdk-new", null));
        assertTrue(full.getMessage().contains("holds 3 rotated sessions already"), full.getMessage());
        assertEquals(new SessionRotation.Retired(), ledger.lookup("sdk-0"), "the oldest retired id stays retired");
        ledger.rotate("sdk-0", "issued-1", null); // a session already in the ledger may rotate again
        ledger.ended("sdk-1");
        ledger.rotate("sdk-new", "sdk-new", null);
        assertEquals(3, ledger.rotated());
    }

    @Test
    void theAuditFingerprintIsNotTheId() {
        String f = SessionRotation.fingerprint("3b2e1f9a-1111-4222-8333-444455556666");
        assertTrue(f.matches("sha256:[0-9a-f]{16}"), f);
        assertFalse(f.contains("3b2e1f9a"));
        assertEquals(f, SessionRotation.fingerprint("3b2e1f9a-1111-4222-8333-444455556666"));
    }
}
