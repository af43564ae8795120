package dev.engram.access;

import java.util.Locale;

/**
 * What a principal may do in a zone. Rights are ordered: write includes read, admin includes write.
 * <ul>
 *   <li>{@link #READ}: recall, context, explore, stats, export, list; resources and prompts.
 *   <li>{@link #WRITE}: remember, amend, link, pin, forget, import.
 *   <li>{@link #ADMIN}: create, describe and delete the zone itself.
 * </ul>
 */
public enum Right {
    READ, WRITE, ADMIN;

    /** Whether holding this right allows what {@code needed} allows. */
    public boolean includes(Right needed) {
        return ordinal() >= needed.ordinal();
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code read}, {@code write} or {@code admin}; null when the text is none of them. */
    public static Right parse(String text) {
        if (text == null) return null;
        for (Right r : values()) {
            if (r.label().equals(text.strip().toLowerCase(Locale.ROOT))) return r;
        }
        return null;
    }
}
