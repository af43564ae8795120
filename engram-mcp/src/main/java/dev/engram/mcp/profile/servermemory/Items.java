package dev.engram.mcp.profile.servermemory;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.ToolArgs;
import java.util.List;
import java.util.Map;

/**
 * The nested arguments of server-memory's tools (arrays of objects), read exactly: strings are never
 * trimmed or split, since names and observations come back byte for byte. Every message names the
 * field by its path ({@code entities[0].entityType}) and shows what to send. A field sent as JSON null
 * is not "required" (it was sent): server-memory refuses it as "expected array, received null", and so
 * the message says what it must be and that it got null.
 */
final class Items {
    private Items() {
    }

    /** A required array of objects; {@code example} is one whole valid call's arguments. */
    static List<Map<String, Object>> objects(ToolArgs args, String field, String what, String example) {
        array(args, field, what, example, Map.class);
        return args.objects(field);
    }

    /** A required array of strings, exactly as sent. */
    static List<String> strings(ToolArgs args, String field, String what, String example) {
        array(args, field, what, example, String.class);
        return args.exactStrings(field); // an item that is no storable text: its message names it
    }

    /**
     * Refuses {@code field} unless it was sent as an array whose items are all {@code itemType}: missing is "required",
     * null or another type is named as sent, and a wrong item by its index (an outside probe got no index for [1] or
     * [null]).
     */
    private static void array(ToolArgs args, String field, String what, String example, Class<?> itemType) {
        Object sent = args.sent(field);
        if (sent == null && !args.sentNull(field)) {
            throw new InvalidArgumentException(field, "is required: an array of " + what + ", e.g. " + example);
        }
        if (!(sent instanceof List<?> items)) {
            throw new InvalidArgumentException(field, "must be an array of " + what + ", got " + ToolArgs.describe(sent)
                    + ", e.g. " + example);
        }
        for (int i = 0; i < items.size(); i++) {
            if (!itemType.isInstance(items.get(i))) {
                throw new InvalidArgumentException(field, "must be an array of " + what + ", but item " + i + " is "
                        + ToolArgs.describe(items.get(i)) + ", e.g. " + example);
            }
        }
    }

    /**
     * A required string argument (search_nodes' query): null is refused as sent, in the words {@link ToolArgs} uses for
     * another wrong type ("must be a string, got number 5 (e.g. …)"); the rest as {@link ToolArgs#text} does.
     */
    static String text(ToolArgs args, String field, String example) {
        if (args.sentNull(field)) {
            throw new InvalidArgumentException(field, "must be a string, got null (e.g. \"" + field + "\": " + example + ")");
        }
        return args.text(field);
    }

    /** A required string field of one item. */
    static String string(Map<String, Object> item, String path, String what, String example) {
        Object v = item.get(lastName(path));
        if (v instanceof String s) return s;
        throw new InvalidArgumentException(path, missing(item, path, v, "a string") + what + ", e.g. " + example);
    }

    /** A required array-of-strings field of one item, exactly as sent. */
    static List<String> strings(ToolArgs args, Map<String, Object> item, String path, String what, String example) {
        Object v = item.get(lastName(path));
        if (v instanceof List<?> list) return args.strings(path, list);
        throw new InvalidArgumentException(path, missing(item, path, v, "an array of strings") + what + ", e.g. " + example);
    }

    /** "is required: " when the item lacks the field, else what it must be and what it got (null included). */
    private static String missing(Map<String, Object> item, String path, Object got, String expected) {
        return got == null && !item.containsKey(lastName(path)) ? "is required: "
                : "must be " + expected + ", got " + ToolArgs.describe(got) + ": ";
    }

    /** "entities[0].entityType" -> "entityType". */
    private static String lastName(String path) {
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
