package dev.engram.engine;

import dev.engram.crypto.Sha256;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The written form of a tag that could not hold its word: a word outside ASCII (Korean) or too long for a tag
 * becomes {@code <prefix>h-<12 hex of its SHA-256>} ({@link #tagFor}), and its spelling is kept in a store mark per
 * tag, so the word reads back as written. Profiles that tag by free words (Memento's topics, keywords, case ids,
 * phases) write them; {@link Engine#export} carries the marks of a memory's tags and {@link Engine#importAll}
 * restores the ones the store lacks, so an export moves them to another store.
 */
public final class TagWords {
    /** The marks' names; the Memento profile named them first, and stores written since keep that name. */
    public static final String MARK = "memento.word.";
    /** A tag's length limit ({@link MemoryRules#tags}): a longer tag is hashed. */
    private static final int MAX_TAG_CHARS = 40;
    private static final Pattern ASCII_SLUG = Pattern.compile("[a-z0-9][a-z0-9._/+#-]{0,35}");
    private static final Pattern HASHED = Pattern.compile("[a-z_]{1,30}:h-[0-9a-f]{12}");
    /** The longest spelling kept: a word, not a text. */
    static final int MAX_WORD_CHARS = 1_000;

    private TagWords() {
    }

    /** The tag {@code word} has under {@code prefix} ({@code topic:}): the word itself when it can be one, else hashed. */
    public static String tagFor(String prefix, String word) {
        String w = word.strip().toLowerCase(Locale.ROOT);
        return plain(prefix, w) ? prefix + w : prefix + "h-" + Sha256.hex(w, 6);
    }

    /** Whether {@code word} can be its own tag under {@code prefix}: an ASCII slug that fits a tag's 40 characters. */
    private static boolean plain(String prefix, String word) {
        return ASCII_SLUG.matcher(word).matches() && prefix.length() + word.length() <= MAX_TAG_CHARS;
    }

    /** Whether {@code tag} has the hashed form, so a spelling may be kept for it. */
    public static boolean hashed(String tag) {
        return HASHED.matcher(tag).matches();
    }

    /** The spellings the store keeps for {@code tags}, by tag; tags without one are left out. */
    static Map<String, String> of(MemoryStore store, Collection<String> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String t : tags) {
            if (hashed(t)) store.mark(MARK + t).ifPresent(w -> out.put(t, w));
        }
        return out.isEmpty() ? Map.of() : Collections.unmodifiableMap(out);
    }

    /** Keeps each spelling the store lacks, inside {@code tx}; one it holds stays (the same word, maybe cased otherwise). */
    static void putAbsent(StoreTransaction tx, Map<String, String> words) {
        words.forEach((tag, word) -> {
            if (tx.mark(MARK + tag).isEmpty()) tx.putMark(MARK + tag, word);
        });
    }

    /**
     * {@code words} checked against the memory's {@code tags}: each must name one of them, be hashed, and be the
     * tag of its word, so an import cannot give a tag a word it does not stand for.
     */
    static Map<String, String> checked(Collection<String> tags, Map<String, String> words) {
        if (words == null || words.isEmpty()) return Map.of();
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : words.entrySet()) {
            String tag = e.getKey(), word = e.getValue() == null ? "" : e.getValue().strip();
            if (tag == null || !tags.contains(tag)) {
                throw new InvalidArgumentException("tag_words", MemoryRules.shown(String.valueOf(tag))
                        + " is not a tag of this memory; name one of its tags");
            }
            if (word.isEmpty() || word.length() > MAX_WORD_CHARS) {
                throw new InvalidArgumentException("tag_words", "of '" + tag + "' must be a word of 1.." + MAX_WORD_CHARS + " characters");
            }
            int cut = tag.indexOf(":h-");
            if (!hashed(tag) || !tagFor(tag.substring(0, cut + 1), word).equals(tag)) {
                throw new InvalidArgumentException("tag_words", MemoryRules.shown(word) + " is not the word of tag '" + tag
                        + "'; send the word the tag was made from");
            }
            out.put(tag, word);
        }
        return Collections.unmodifiableMap(out);
    }

}
