package dev.engram.mcp.profile.servermemory;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.ToolArgs;
import java.util.List;
import java.util.Map;

/**
 * The nested arguments of server-memory's tools (arrays of objects), read exactly: strings are never
 * trimmed or split, since names and observations come back byte for byte. Every message names the
 * field by its path ({@code entities[0].entityType}) and shows what to send.
 */
final class Items {
    private Items() {
    }

    /** A required array of objects; {@code example} is one whole valid call's arguments. */
    static List<Map<String, Object>> objects(ToolArgs args, String field, String what, String example) {
        List<Map<String, Object>> items;
        try {
            items = args.objects(field);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(field, "must be an array of " + what + ", e.g. " + example);
        }
        if (items == null) throw new InvalidArgumentException(field, "is required: an array of " + what + ", e.g. " + example);
        return items;
    }

    /** A required array of strings, exactly as sent. */
    static List<String> strings(ToolArgs args, String field, String what, String example) {
        if (args.sent(field) instanceof List<?> items) {
            for (int i = 0; i < items.size(); i++) {
                // the item at fault, as the other array fields name it (an outside probe got no index for [1] or [null])
                if (!(items.get(i) instanceof String)) {
                    throw new InvalidArgumentException(field, "must be an array of " + what + ", but item " + i + " is "
                            + ToolArgs.describe(items.get(i)) + ", e.g. " + example);
                }
            }
        }
        List<String> values;
        try {
            values = args.exactStrings(field);
        } catch (InvalidArgumentException e) {
            if (args.sent(field) instanceof List<?>) throw e; // an item that is no storable text: that message names it
            throw new InvalidArgumentException(field, "must be an array of " + what + ", e.g. " + example);
        }
        if (values == null) throw new InvalidArgumentException(field, "is required: an array of " + what + ", e.g. " + example);
        return values;
    }

    /** A required string field of one item. */
    static String string(Map<String, Object> item, String path, String what, String example) {
        Object v = item.get(lastName(path));
        if (v instanceof String s) return s;
        throw new InvalidArgumentException(path, (v == null ? "is required: " : "must be a string: ") + what + ", e.g. " + example);
    }

    /** A required array-of-strings field of one item, exactly as sent. */
    static List<String> strings(ToolArgs args, Map<String, Object> item, String path, String what, String example) {
        Object v = item.get(lastName(path));
        if (v instanceof List<?> list) return args.strings(path, list);
        throw new InvalidArgumentException(path, (v == null ? "is required: " : "must be an array of strings: ") + what
                + ", e.g. " + example);
    }

    /** "entities[0].entityType" -> "entityType". */
    private static String lastName(String path) {
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
