package dev.engram.mcp.json;

import dev.engram.error.EngramUserException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON Lines as the knowledge-graph importers read them (server-memory's {@code memory.jsonl}, brain-tools'
 * export): one {@code {"type":"entity"|"relation",…}} object per line. A line that cannot be used is skipped and
 * named ({@code "line 3: not JSON (…)"}) while every other line is read, so one bad line costs that line, not
 * the whole file.
 */
public final class JsonLines {
    /** At most this many skipped lines are quoted in a report; the rest are counted. */
    public static final int LINES_QUOTED = 5;

    /** What is done with one usable line; an {@link EngramUserException} (see {@link #bad}) skips the line instead. */
    @FunctionalInterface
    public interface LineReader {
        void read(Map<String, Object> item, int line);
    }

    private JsonLines() {
    }

    /**
     * Hands each line that is a JSON object to {@code reader} with its 1-based number and returns why each other line
     * was skipped, in file order. Blank lines are passed over silently, and so is a byte-order mark before the first.
     */
    public static List<String> read(String text, JsonText json, LineReader reader) {
        List<String> skipped = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i == 0 && line.startsWith("\uFEFF")) line = line.substring(1);
            if (line.isBlank()) continue;
            try {
                Map<String, Object> item;
                try {
                    item = json.readObject(line);
                } catch (IllegalArgumentException e) {
                    throw bad(i + 1, "not JSON (" + e.getMessage() + ")");
                }
                reader.read(item, i + 1);
            } catch (EngramUserException e) {
                skipped.add(e.getMessage());
            }
        }
        return skipped;
    }

    /** The line's record kind, {@code "entity"} or {@code "relation"}; any other (or none) skips the line. */
    public static String kind(Map<String, Object> item, int line) {
        Object type = item.get("type");
        if ("entity".equals(type) || "relation".equals(type)) return (String) type;
        throw bad(line, "\"type\" is " + (type == null ? "missing"
                : JsStringify.compact(type instanceof String s ? s : String.valueOf(type)))
                + ", neither \"entity\" nor \"relation\"");
    }

    /** Skips line {@code line} for {@code problem}, a phrase saying what is wrong and, where it helps, what is expected. */
    public static EngramUserException bad(int line, String problem) {
        return new EngramUserException("line " + line + ": " + problem);
    }

    /**
     * A report's phrase for what was skipped: how many and {@code what} ({@code "line(s) skipped"}), then the first
     * {@value #LINES_QUOTED} reasons and a count of the rest: {@code "2 line(s) skipped (line 3: …; line 9: …)"}.
     */
    public static String skippedNote(List<String> reasons, String what) {
        return reasons.size() + " " + what + " (" + String.join("; ", reasons.subList(0, Math.min(LINES_QUOTED, reasons.size())))
                + (reasons.size() > LINES_QUOTED ? "; and " + (reasons.size() - LINES_QUOTED) + " more" : "") + ")";
    }
}
