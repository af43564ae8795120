package dev.engram.memory;

import dev.engram.analysis.Words;
import dev.engram.error.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every syntax rule for memory fields, in one place, so the engine, the MCP tools and the CLI
 * reject the same input with the same message.
 */
public final class MemoryRules {
    /** 1–3 sentences is the norm; the cap stops an agent from pasting whole files into memory. */
    public static final int MAX_CONTENT_CHARS = 8_000;
    public static final int MAX_TAGS = 20;
    public static final int MAX_LINKS = 50;
    /** The most memories one call may name (ids to fetch, entries to tag): each is a lookup, and a call stays short. */
    public static final int MAX_REFERENCES = 1_000;
    public static final String DEFAULT_ZONE = "default";
    /** A file path or a path glob: far longer than any real path, short enough to stay a field. */
    public static final int MAX_PATH_CHARS = 1_024;
    /** Longest piece of a rejected value an error message quotes; the rest is only counted. */
    static final int MAX_SHOWN_CHARS = 40;
    /**
     * Zone names the tools give a meaning of their own ({@code stats} reads {@code all} as every
     * zone) or that clients turn into other values (JSON and YAML read {@code null}, {@code true},
     * {@code 1e999} as non-strings): never a zone's name.
     */
    public static final Set<String> RESERVED_ZONES = Set.of("all", "any", "none", "null", "nil", "undefined", "true",
            "false", "nan", "infinity");

    private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9._-]{0,79}");
    private static final Pattern TAG = Pattern.compile("[a-z0-9][a-z0-9._:/+#-]{0,39}");
    private static final Pattern ZONE = Pattern.compile("[a-z0-9][a-z0-9._-]{0,39}");
    private static final Pattern ID = Pattern.compile("m_[a-z2-7]{10}");
    private static final Pattern NUMBER = Pattern.compile(
            "[0-9]+(\\.[0-9]*)?(e-?[0-9]+)?|[0-9]*\\.[0-9]+(e-?[0-9]+)?|0x[0-9a-f]+|0o[0-7]+|0b[01]+");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})([mhdw])");

    private MemoryRules() {
    }

    public static String content(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(field, "is required: one self-contained fact, 1-3 sentences");
        }
        String v = value.strip();
        requireWellFormed(field, v);
        if (v.length() > MAX_CONTENT_CHARS) {
            throw new InvalidArgumentException(field, "is " + v.length() + " characters, over the limit of "
                    + MAX_CONTENT_CHARS + "; split it into several memories and link them");
        }
        return v;
    }

    public static String key(String field, String value) {
        if (value == null || !KEY.matcher(value).matches()) {
            throw new InvalidArgumentException(field, shown(value) + " is not a valid key: use 1-80 lowercase letters,"
                    + " digits, '-', '_' or '.', starting with a letter or digit (e.g. '"
                    + slug(value == null ? "my-key" : value.substring(0, Math.min(value.length(), 400))) + "')");
        }
        if (isId(value)) {
            // a reference resolves ids before keys: such a key could never be reached by its name
            throw new InvalidArgumentException(field, shown(value) + " has the form of a memory id (m_ and 10 letters or"
                    + " digits); choose a key that does not, such as '" + value.replace('_', '-') + "-note'");
        }
        return value;
    }

    public static boolean isKey(String value) {
        return value != null && KEY.matcher(value).matches();
    }

    public static boolean isId(String value) {
        return value != null && ID.matcher(value).matches();
    }

    /** At most {@link #MAX_REFERENCES} ids or keys, each checked by {@link #reference}. */
    public static List<String> references(String field, List<String> values) {
        requireAtMostReferences(field, values.size());
        return values.stream().map(v -> reference(field, v)).toList();
    }

    /** Refuses a call naming more than {@link #MAX_REFERENCES} memories, before any is looked up. */
    public static void requireAtMostReferences(String field, int count) {
        if (count > MAX_REFERENCES) {
            throw new InvalidArgumentException(field, "names " + count + " memories; send at most " + MAX_REFERENCES
                    + " a call (split the rest into further calls)");
        }
    }

    /** An id or a key; anything else is malformed. */
    public static String reference(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(field, "is required: a memory id (m_xxxxxxxxxx) or key");
        }
        String v = value.strip();
        if (!isId(v) && !isKey(v)) {
            throw new InvalidArgumentException(field, shown(value) + " is neither a memory id (m_ followed by 10"
                    + " letters a-z or digits 2-7) nor a key (lowercase letters, digits, '-', '_', '.')");
        }
        return v;
    }

    public static String zone(String field, String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_ZONE;
        }
        if (!ZONE.matcher(value).matches()) {
            throw new InvalidArgumentException(field, shown(value) + " is not a valid zone name: use 1-40 lowercase"
                    + " letters, digits, '-', '_' or '.' (default zone: '" + DEFAULT_ZONE + "')");
        }
        return value;
    }

    /**
     * The zone of a memory being created: {@link #zone} plus the reserved names. Only creation refuses
     * them, so a store whose zones predate the reservation (a zone '2024', say) stays readable.
     */
    public static String newZone(String field, String value) {
        String zone = zone(field, value);
        if (RESERVED_ZONES.contains(zone) || NUMBER.matcher(zone).matches()) {
            throw new InvalidArgumentException(field, shown(zone) + " is reserved: a zone may not be named "
                    + String.join(", ", new java.util.TreeSet<>(RESERVED_ZONES)) + " or read as a number; choose another name"
                    + " such as 'my-project'");
        }
        return zone;
    }

    public static List<String> tags(String field, List<String> values) {
        if (values == null) {
            return List.of();
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String raw : values) {
            String t = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
            if (t.isEmpty()) {
                continue;
            }
            if (!TAG.matcher(t).matches()) {
                throw new InvalidArgumentException(field, shown(raw) + " is not a valid tag: use 1-40 characters of"
                        + " letters, digits and . _ : / + # -, starting with a letter or digit");
            }
            out.add(t);
        }
        if (out.size() > MAX_TAGS) {
            throw new InvalidArgumentException(field, "has " + out.size() + " tags, over the limit of " + MAX_TAGS);
        }
        return List.copyOf(out);
    }

    /** Merges two tag lists keeping first-seen order; the result may not exceed {@link #MAX_TAGS}. */
    public static List<String> union(List<String> a, List<String> b) {
        LinkedHashSet<String> out = new LinkedHashSet<>(a);
        out.addAll(b);
        return new ArrayList<>(out).subList(0, Math.min(out.size(), MAX_TAGS));
    }

    /** A file path the memory is about, or null; bounded like every stored field. */
    public static String path(String field, String value) {
        if (value == null || value.isBlank()) return null;
        String v = value.strip();
        requireWellFormed(field, v);
        if (v.length() > MAX_PATH_CHARS) {
            throw new InvalidArgumentException(field, "is " + v.length() + " characters, over the limit of " + MAX_PATH_CHARS
                    + "; send a file path or glob such as 'src/api/**'");
        }
        return v;
    }

    /**
     * Text with an unpaired UTF-16 surrogate cannot be stored as UTF-8 (it became '?'): refused,
     * where it would otherwise be changed silently.
     */
    public static void requireWellFormed(String field, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!Character.isSurrogate(c)) continue;
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
                continue;
            }
            throw new InvalidArgumentException(field, "has an unpaired UTF-16 surrogate (\\u" + Integer.toHexString(c)
                    + ") at character " + (i + 1) + "; send valid Unicode text");
        }
    }

    /**
     * A rejected value as an error message quotes it: whole when short, else its first
     * {@value #MAX_SHOWN_CHARS} characters and its length, so a huge value never comes back whole.
     */
    public static String shown(String value) {
        if (value == null) return "null";
        if (value.length() <= MAX_SHOWN_CHARS) return "'" + value + "'";
        return "'" + clipped(value) + "' (" + value.length() + " characters)";
    }

    /** A value a message repeats in its own quoting: whole when short, else its first {@value #MAX_SHOWN_CHARS} characters and "…". */
    public static String clipped(String value) {
        if (value == null || value.length() <= MAX_SHOWN_CHARS) return value;
        int end = MAX_SHOWN_CHARS;
        if (Character.isHighSurrogate(value.charAt(end - 1))) end--;
        return value.substring(0, end) + "…";
    }

    /**
     * One rule for every closed choice: the exact wire name, as the tool schemas list it (no case
     * folding, no trimming), so every enum accepts and refuses the same spellings.
     */
    public static <E extends Enum<E>> E choice(String field, String value, Class<E> type, Function<E, String> wireName,
                                               String expected) {
        for (E e : type.getEnumConstants()) {
            if (wireName.apply(e).equals(value)) return e;
        }
        throw new InvalidArgumentException(field, shown(value) + " is not " + expected);
    }

    public static int importanceOrPriority(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidArgumentException(field, "must be " + min + ".." + max + ", got " + value);
        }
        return value;
    }

    /**
     * A time-to-live: {@code 90m}, {@code 24h}, {@code 7d}, {@code 2w} from {@code now}, or an ISO
     * date {@code 2026-12-31} (expires at the start of that day, UTC), which must be in the future.
     */
    public static Instant ttl(String field, String value, Instant now) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        Matcher m = DURATION.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            if (n == 0) {
                throw new InvalidArgumentException(field, "" + shown(value) + " is zero; send a positive duration such as 24h or 7d");
            }
            return now.plus(unit(m.group(2)).multipliedBy(n));
        }
        Instant at = parseDate(v);
        if (at == null) {
            throw new InvalidArgumentException(field, "" + shown(value) + " is not a TTL; send a duration such as 90m, 24h,"
                    + " 7d or 2w, or a date such as 2026-12-31");
        }
        if (!at.isAfter(now)) {
            throw new InvalidArgumentException(field, "" + shown(value) + " is in the past; send a future date or a duration such as 7d");
        }
        return at;
    }

    /**
     * A point in time for filters: an ISO date or instant, or a relative age such as {@code 7d}
     * meaning "7 days before now".
     */
    public static Instant pointInTime(String field, String value, Instant now) {
        String v = value.strip();
        Matcher m = DURATION.matcher(v.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            return now.minus(unit(m.group(2)).multipliedBy(Long.parseLong(m.group(1))));
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException ignored) {
            // not an instant; try a plain date next
        }
        Instant at = parseDate(v);
        if (at == null) {
            throw new InvalidArgumentException(field, "" + shown(value) + " is not a date; send 2026-11-29,"
                    + " 2026-11-29T10:00:00Z or a relative age such as 7d or 24h");
        }
        return at;
    }

    /**
     * As {@link #pointInTime}, but a plain date names its whole day: the last instant of that day (UTC), so "up to
     * 2026-12-07" and "as of 2026-12-07" include what was written on the 7th, as toon-memory's date comparisons do.
     */
    public static Instant endOfPointInTime(String field, String value, Instant now) {
        Instant at = pointInTime(field, value, now);
        return parseDate(value.strip()) != null ? at.plus(Duration.ofDays(1)).minusNanos(1) : at;
    }

    private static Instant parseDate(String v) {
        try {
            return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Duration unit(String u) {
        return switch (u) {
            case "m" -> Duration.ofMinutes(1);
            case "h" -> Duration.ofHours(1);
            case "d" -> Duration.ofDays(1);
            default -> Duration.ofDays(7);
        };
    }

    /** {@code w} without every character but a-z and 0-9. */
    private static String asciiLettersAndDigits(String w) {
        StringBuilder out = new StringBuilder(w.length());
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') out.append(c);
        }
        return out.toString();
    }

    /**
     * A key-shaped slug of free text: lowercase ASCII words joined by '-', at most 6 words and 80
     * characters, accents dropped. Text without ASCII words (Korean, Japanese, …) gets {@code note-<hash>}
     * of the text as sent, so equal texts still share a key and different ones rarely collide.
     */
    public static String slug(String text) {
        StringBuilder sb = new StringBuilder();
        int count = 0;
        for (String w : Words.runs(Words.withoutAccents(text).toLowerCase(Locale.ROOT))) {
            String ascii = asciiLettersAndDigits(w);
            if (ascii.isEmpty()) {
                continue;
            }
            if (sb.length() + ascii.length() + 1 > 80 || count == 6) {
                break;
            }
            if (sb.length() > 0) sb.append('-');
            sb.append(ascii);
            count++;
        }
        return sb.length() == 0 ? String.format("note-%08x", text.strip().hashCode()) : sb.toString();
    }

    /**
     * The {@code n}-th key (1 = the first) the engine derives for a memory written without one: the content's
     * {@link #slug}, then {@code slug-2}, {@code slug-3}, … cut to stay within 80 characters.
     */
    public static String derivedKey(String content, int n) {
        String base = slug(content);
        if (n <= 1) return base;
        String suffix = "-" + n;
        return base.substring(0, Math.min(base.length(), 80 - suffix.length())) + suffix;
    }

    /**
     * Keys made of a fixed word and a hash, given to names and texts without ASCII words: {@link #slug}'s
     * {@code note-<8 hex>} and the toon profile's {@code entry-<6 hex>}, with {@link #derivedKey}'s {@code -n} after
     * either.
     */
    private static final java.util.regex.Pattern OPAQUE_KEY = java.util.regex.Pattern.compile(
            "(?:note-[0-9a-f]{8}|entry-[0-9a-f]{6})(?:-[0-9]{1,9})?");

    /**
     * Whether {@code key} holds no word of its own (see {@link #OPAQUE_KEY}): searched as a key, its fixed word matched
     * every such memory (an outside probe's query {@code note} found every entity with a Korean or Chinese name first).
     */
    public static boolean isOpaqueKey(String key) {
        return key != null && OPAQUE_KEY.matcher(key).matches();
    }

    /** Whether {@code key} is one {@link #derivedKey} gives for {@code content}: then it says nothing the content does not. */
    public static boolean isDerivedKey(String key, String content) {
        if (key.equals(slug(content))) return true;
        int dash = key.lastIndexOf('-');
        String digits = dash < 0 ? "" : key.substring(dash + 1);
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) return false;
        int n = Integer.parseInt(digits);
        return n >= 2 && key.equals(derivedKey(content, n));
    }
}
