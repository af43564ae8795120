package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.StoreTransaction;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Named free-text notes about one memory that are not part of its content and too long or too free for a tag: a
 * profile's extra fields (Memento's {@code goal}, {@code outcome}, {@code contextSummary}). They are written with the
 * memory, in its store transaction ({@link RememberCommand#notes()}), and read back with {@link Engine#notes}; a
 * later remember that merges into the memory replaces the notes it names and keeps the others. Kept in one store mark
 * per memory ({@code memory-notes/<id>}), so an encrypted store seals them like the content. Not searched; exported
 * with the memory ({@link ExportRecord#notes}) and imported with it: the file's notes replace the stored ones of the
 * same name when the file's state of the memory wins, and only fill the names the store lacks when the stored state stays.
 * <p>Bounded: at most {@link #MAX_NOTES} notes, names {@code [a-z][a-z0-9_]{0,31}}, values of at most
 * {@link #MAX_CHARS} characters; a blank value is no note.
 */
public final class MemoryNotes {
    public static final int MAX_NOTES = 16, MAX_CHARS = 2_000;
    static final String MARK = "memory-notes/";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    private MemoryNotes() {
    }

    /** The notes of a command, checked: a copy without blank values, in the caller's order. */
    static Map<String, String> checked(Map<String, String> notes) {
        if (notes == null || notes.isEmpty()) return Map.of();
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : notes.entrySet()) {
            String name = e.getKey();
            if (name == null || !NAME.matcher(name).matches()) {
                throw new InvalidArgumentException("notes", MemoryRules.shown(String.valueOf(name))
                        + " is not a note name; use lower-case letters, digits and _ (at most 32)");
            }
            String value = e.getValue() == null ? "" : e.getValue().strip();
            if (value.isEmpty()) continue;
            if (value.length() > MAX_CHARS) {
                throw new InvalidArgumentException(name, "is " + value.length() + " characters; send at most " + MAX_CHARS);
            }
            out.put(name, value);
        }
        if (out.size() > MAX_NOTES) {
            throw new InvalidArgumentException("notes", "has " + out.size() + " notes, over the limit of " + MAX_NOTES);
        }
        return Collections.unmodifiableMap(out);
    }

    /** Writes {@code notes} onto memory {@code id} inside {@code tx}: the names sent replace theirs, the rest stay. */
    static void put(StoreTransaction tx, String id, Map<String, String> notes) {
        if (notes.isEmpty()) return;
        Map<String, String> all = decode(tx.mark(MARK + id).orElse(""));
        all.putAll(notes);
        tx.putMark(MARK + id, encode(all));
    }

    /** As {@link #put}, only for the names the memory has no note of yet: the stored ones stay. */
    static void putAbsent(StoreTransaction tx, String id, Map<String, String> notes) {
        if (notes.isEmpty()) return;
        Map<String, String> all = decode(tx.mark(MARK + id).orElse(""));
        Map<String, String> missing = new LinkedHashMap<>();
        notes.forEach((name, value) -> {
            if (!all.containsKey(name)) missing.put(name, value);
        });
        put(tx, id, missing);
    }

    /** The notes the store keeps for memory {@code id}; empty when it has none. */
    static Map<String, String> of(dev.engram.spi.MemoryStore store, String id) {
        return store.mark(MARK + id).map(MemoryNotes::decode).orElseGet(Map::of);
    }

    static String encode(Map<String, String> notes) {
        StringBuilder b = new StringBuilder();
        notes.forEach((name, value) -> b.append(name).append('\t').append(MarkText.escape(value)).append('\n'));
        return b.toString();
    }

    static Map<String, String> decode(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab <= 0) continue; // an empty or unreadable line: no note
            out.put(line.substring(0, tab), MarkText.unescape(line.substring(tab + 1)));
        }
        return out;
    }
}
