package dev.engram.access;

import dev.engram.error.EngramUserException;

/**
 * A call needed a right its principal lacks. The message names the right and the zone the caller
 * asked for, never another zone: the decision depends on the principal's rights alone, so a zone
 * that exists and one that does not give the same answer.
 */
public final class AccessDeniedException extends EngramUserException {
    public AccessDeniedException(Right needed, String zone) {
        super("access denied: this token has no " + needed.label() + " right on zone '" + zone
                + "'; ask the server's operator for one (engram tokens add NAME --zone " + zone + ":" + needed.label() + ")");
    }

    /** A right no single zone grants (a store-wide operation). */
    public AccessDeniedException(Right needed) {
        super("access denied: this needs the " + needed.label() + " right on every zone, which this token does not have");
    }
}
