package dev.engram.engine.session;

import dev.engram.crypto.Sha256;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Session-id rotation (Memento's {@code session_rotate}): a transport session keeps running under a new id its client
 * presents from then on, and the id it had stops working, so a leaked id opens nothing. The transport's own session
 * (its state, what the session wrote, what it was shown) carries over unchanged, as Memento carries the key, workspace
 * and permissions over to the new session.
 * <p>The ledger maps each presented id to the transport's session id ({@link #lookup}): a rotated session's current
 * id routes to it; its transport id, which its client sent before the first rotation, is retired; an id the ledger
 * never issued is the transport's own (or unknown to it). Earlier issued ids are simply forgotten: the transport
 * never knew them, so they find no session. At most {@value #MAX_ROTATED} sessions are rotated at once; the ledger
 * never drops one on its own (a dropped entry would revive a retired id), so past that a rotation is refused until
 * sessions end ({@link #ended}). In memory: sessions live in the serving process, and so does their ledger.
 * <p>Each rotation is logged at INFO on {@code engram.sessions} with SHA-256 fingerprints of both ids (never the ids
 * themselves) and the reason, as Memento's session audit log records it.
 */
public final class SessionRotation {
    public static final int MAX_REASON = 256, MAX_ROTATED = 100_000;
    /** The reason when none is given (Memento's). */
    public static final String DEFAULT_REASON = "user_request";
    private static final Logger audit = LoggerFactory.getLogger("engram.sessions");

    /** What a presented session id stands for. */
    public sealed interface Lookup permits Unrotated, Current, Retired {
    }

    /** An id the ledger did not issue and has not retired: the transport's own, passed on as it is. */
    public record Unrotated() implements Lookup {
    }

    /** The current id of a rotated session: the transport knows that session as {@code sessionId}. */
    public record Current(String sessionId) implements Lookup {
    }

    /** A transport's id its session was rotated away from: refused, as a session that has ended. */
    public record Retired() implements Lookup {
    }

    /** One rotation: the id presented before, the one to present from now on, and why. */
    public record Rotated(String previousId, String newId, String reason) {
    }

    /**
     * {@link #rotatePresented}'s refusal: the presented id opens no session, because a rotation retired it
     * ({@code retired}) or because no open session has it (never issued, ended, or opened before this server started).
     */
    public static final class UnknownSession extends EngramUserException {
        private final boolean retired;

        UnknownSession(boolean retired) {
            super(retired ? "session not found: this id was retired by a rotation; send the newest id you were given, or "
                    + "initialize a new session" : "session not found: no open session has this id (it ended, the server "
                    + "restarted, or it was never issued); initialize a new session");
            this.retired = retired;
        }

        public boolean retired() {
            return retired;
        }
    }

    private final Supplier<String> ids;
    private final int capacity;
    /** Current presented id → transport session id, and back. */
    private final Map<String, String> current = new HashMap<>(), issued = new HashMap<>();
    /**
     * The transport's open sessions, as the server saw them opened and ended ({@link #opened}, {@link #ended}), oldest
     * first: what {@link #rotatePresented} may rotate. Bounded by the capacity: past it the oldest is forgotten (it can
     * still rotate itself with the tool; the route then answers that it knows no such session).
     */
    private final LinkedHashSet<String> open = new LinkedHashSet<>();

    /** New ids are random UUIDs (122 random bits, as the transport's own). */
    public SessionRotation() {
        this(() -> UUID.randomUUID().toString(), MAX_ROTATED);
    }

    /** @param capacity how many sessions may be rotated at once ({@value #MAX_ROTATED} in a server) */
    public SessionRotation(Supplier<String> ids, int capacity) {
        this.ids = ids;
        this.capacity = capacity;
    }

    public synchronized Lookup lookup(String presented) {
        if (presented == null) return new Unrotated();
        String session = current.get(presented);
        if (session != null) return new Current(session);
        return issued.containsKey(presented) ? new Retired() : new Unrotated();
    }

    /**
     * Gives transport session {@code sessionId}, which the caller reached by presenting {@code presented}, a new id;
     * {@code presented} stops working at once. Refused when {@code presented} is no longer the session's id (it was
     * rotated meanwhile) or the ledger is full.
     */
    public synchronized Rotated rotate(String sessionId, String presented, String reason) {
        String why = reason(reason);
        String now = issued.getOrDefault(sessionId, sessionId);
        if (!now.equals(presented)) {
            throw new EngramUserException("this session's id was rotated already; send the newest id you were given");
        }
        if (!issued.containsKey(sessionId) && issued.size() >= capacity) {
            throw new EngramUserException("this server holds " + capacity + " rotated sessions already; try again when some "
                    + "have ended, or reconnect for a new session");
        }
        String next = ids.get();
        if (next.equals(presented) || current.containsKey(next) || issued.containsKey(next)) {
            throw new IllegalStateException("the id source repeated an id");
        }
        current.remove(presented);
        current.put(next, sessionId);
        issued.put(sessionId, next);
        Rotated r = new Rotated(presented, next, why);
        audit.info("session rotated: {} -> {} reason={}", fingerprint(presented), fingerprint(next), why);
        return r;
    }

    /**
     * Rotates the session a client reaches by presenting {@code presented}, for a caller outside the session's own
     * requests (Memento's {@code POST /session/rotate}): the same rotation as {@link #rotate}, for an open session's
     * current id. Refused with {@link UnknownSession} when the id was retired or no open session has it.
     */
    public synchronized Rotated rotatePresented(String presented, String reason) {
        String why = reason(reason);
        Lookup lookup = lookup(presented);
        if (lookup instanceof Retired) throw new UnknownSession(true);
        String session = lookup instanceof Current c ? c.sessionId() : presented;
        if (presented == null || !open.contains(session)) throw new UnknownSession(false);
        return rotate(session, presented, why);
    }

    /** The id a client presents for transport session {@code sessionId} now: its latest rotated id, else its own. */
    public synchronized String currentId(String sessionId) {
        return issued.getOrDefault(sessionId, sessionId);
    }

    /** The transport opened session {@code sessionId} (its initialize was answered with that id). */
    public synchronized void opened(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) return;
        open.remove(sessionId);
        open.add(sessionId);
        while (open.size() > capacity) {
            var eldest = open.iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** The transport ended session {@code sessionId}: its ids are forgotten. */
    public synchronized void ended(String sessionId) {
        open.remove(sessionId);
        String alias = issued.remove(sessionId);
        if (alias != null) current.remove(alias);
    }

    /** Sessions rotated and not ended. */
    public synchronized int rotated() {
        return issued.size();
    }

    /** A rotation's reason, checked: absent or blank is {@value #DEFAULT_REASON}; one line of at most {@value #MAX_REASON}. */
    public static String reason(String raw) {
        if (raw == null || raw.isBlank()) return DEFAULT_REASON;
        String r = raw.strip();
        if (r.length() > MAX_REASON) {
            throw new InvalidArgumentException("reason", "is " + r.length() + " characters; send at most " + MAX_REASON);
        }
        if (r.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidArgumentException("reason", "has a line break or control character; send one line, e.g. suspected_leak");
        }
        return r;
    }

    /** What the audit line shows of an id: {@code sha256:} and 16 hex digits, never the id. */
    public static String fingerprint(String id) {
        return "sha256:" + Sha256.hex(id, 8);
    }
}
