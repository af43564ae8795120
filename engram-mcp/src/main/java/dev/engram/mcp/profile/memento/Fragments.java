package dev.engram.mcp.profile.memento;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.TagWords;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.rank.NumericImportance;
import dev.engram.engine.lifecycle.LifecyclePolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a Memento fragment lives in an Engram memory, one place for every tool:
 * <ul>
 *   <li>Memento's seven types map onto Engram's by name; {@code episode} is a fact tagged {@code episode}
 *       (Engram has no episode type, and an episode fades like a fact);</li>
 *   <li>the topic is the tag {@code topic:<slug>}, the keywords tags {@code kw:<slug>}. A topic or keyword
 *       with letters outside ASCII (Korean) gets a hashed tag {@code topic:h-<hex>} and its own words are
 *       kept in a store mark, so it reads back as written;</li>
 *   <li>importance 0..1 is {@link NumericImportance} (relevance ×2 plus the level), faded by type and
 *       placed in a tier by the engine's {@link LifecyclePolicy#MEMENTO}; an anchor is a pinned memory.</li>
 * </ul>
 */
final class Fragments {
    static final List<String> TYPES = List.of("fact", "decision", "error", "preference", "procedure", "relation", "episode");
    static final int MAX_CHARS = 300, MAX_EPISODE_CHARS = 1000;
    static final String TOPIC = "topic:", KEYWORD = "kw:", EPISODE = "episode", SESSION_SCOPE = "scope:session";
    /** The store mark keeping a hashed tag's word ({@link TagWords}: export and import carry it). */
    static final String MARK = TagWords.MARK;
    /** remember's v3 case fields: tags for the short ones, the engine's memory notes for the texts. */
    static final String CASE = "case:", RESOLUTION = "resolution:", PHASE = "phase:", ASSERTION = "assertion:", AFFECT = "affect:";
    static final String GOAL = "goal", OUTCOME = "outcome", CONTEXT_SUMMARY = "context_summary";
    static final List<String> RESOLUTIONS = List.of("open", "resolved", "abandoned");
    /** Memento's assertion levels; observed is the default and is not stored. */
    static final List<String> ASSERTIONS = List.of("observed", "inferred", "verified", "rejected");
    /** Memento's affect tags; neutral is the default and is not stored. */
    static final List<String> AFFECTS = List.of("neutral", "frustration", "confidence", "surprise", "doubt", "satisfaction");
    private static final Pattern WORD = Pattern.compile("[^\\p{L}\\p{N}_]+");
    /** Words that say nothing about a fragment, in English and Korean (particles and fillers). */
    static final Set<String> STOP_WORDS = Set.of("the", "a", "an", "and", "or", "but", "is", "are", "was", "were", "be",
            "been", "to", "of", "in", "on", "at", "for", "with", "by", "from", "as", "it", "its", "this", "that", "these",
            "those", "not", "no", "do", "does", "did", "has", "have", "had", "will", "would", "can", "could", "should",
            "we", "you", "they", "he", "she", "i", "my", "our", "your", "their", "if", "then", "so", "than", "when",
            "which", "who", "what", "use", "used", "using",
            "이", "그", "저", "것", "수", "등", "및", "또는", "그리고", "하지만", "에서", "으로", "에게", "하다", "있다", "없다",
            "된다", "한다", "했다", "위해", "때문에", "경우", "는", "은", "가", "을", "를", "에", "의", "도", "로");

    private final java.util.function.Supplier<Engine> engines;

    Fragments(java.util.function.Supplier<Engine> engines) {
        this.engines = engines;
    }

    // --- type ---------------------------------------------------------------------------------------------

    static String parseType(String value) {
        return parseTypeAt("type", value);
    }

    static String parseTypeAt(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(field, "is required: one of " + String.join(", ", TYPES));
        }
        String t = value.strip().toLowerCase(Locale.ROOT);
        if (!TYPES.contains(t)) {
            throw new InvalidArgumentException(field, MemoryRules.shown(value) + " is not a fragment type; send one of "
                    + String.join(", ", TYPES));
        }
        return t;
    }

    static MemoryType engineType(String type) {
        return type.equals(EPISODE) ? MemoryType.FACT : MemoryType.parse("type", type);
    }

    static String typeOf(Memory m) {
        if (m.tags().contains(EPISODE)) return EPISODE;
        String t = m.type().wireName();
        return TYPES.contains(t) ? t : "fact";
    }

    /** Memento's current per-type default importance (seed-systems §2.6). */
    static double defaultImportance(String type) {
        return switch (type) {
            case "error" -> 0.9;
            case "decision" -> 0.8;
            case "procedure" -> 0.7;
            case "preference" -> 0.95;
            case "relation", "episode" -> 0.6;
            default -> 0.5;
        };
    }

    // --- content, topic and keywords ----------------------------------------------------------------------

    static String content(String field, String value, String type) {
        int max = EPISODE.equals(type) ? MAX_EPISODE_CHARS : MAX_CHARS;
        // Memento's limit is said first: the store's own (8,000) is far above it
        int length = value == null ? 0 : value.strip().length();
        if (length > max) {
            throw new InvalidArgumentException(field, "is " + length + " characters, over Memento's limit of " + max
                    + (max == MAX_CHARS ? " (1000 for type episode)" : "")
                    + "; split it into atomic fragments of 1-3 sentences and link them with linkedTo");
        }
        return MemoryRules.content(field, value);
    }

    /** Up to five words of the content that are not stop words, in order of first use. */
    static List<String> extractKeywords(String content) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String w : WORD.split(content.toLowerCase(Locale.ROOT))) {
            if (w.length() < 2 || w.length() > 36 || STOP_WORDS.contains(w) || w.chars().allMatch(Character::isDigit)) continue;
            out.add(w);
            if (out.size() == 5) break;
        }
        return List.copyOf(out);
    }

    /** The tag that stands for {@code word} under {@code prefix}; remembers a non-ASCII word's spelling. */
    String tag(String prefix, String word) {
        String tag = tagFor(prefix, word);
        if (tag.equals(prefix + word.strip().toLowerCase(Locale.ROOT))) return tag; // the word is its own tag
        String mark = MARK + tag;
        Engine e = engines.get();
        if (e.mark(mark).isEmpty()) e.setMark(mark, word.strip());
        return tag;
    }

    /** The tag {@code word} would have, without writing anything (for filters): the engine's rule ({@link TagWords}). */
    static String tagFor(String prefix, String word) {
        return TagWords.tagFor(prefix, word);
    }

    String word(String tag, String prefix) {
        String w = tag.substring(prefix.length());
        if (!w.startsWith("h-")) return w;
        return engines.get().mark(MARK + tag).orElse(w);
    }

    String topicOf(Memory m) {
        return m.tags().stream().filter(t -> t.startsWith(TOPIC)).findFirst().map(t -> word(t, TOPIC)).orElse(null);
    }

    List<String> keywordsOf(Memory m) {
        return m.tags().stream().filter(t -> t.startsWith(KEYWORD)).map(t -> word(t, KEYWORD)).toList();
    }

    // --- importance and tier ------------------------------------------------------------------------------

    static double storedImportance(Memory m) {
        return NumericImportance.of(m);
    }

    /** Memento's tier (short, hot, warm, cold, permanent): the engine's rule, {@link LifecyclePolicy#MEMENTO}. */
    static String tier(Memory m, Instant now) {
        return LifecyclePolicy.MEMENTO.tier(m, now).wireName();
    }

    /** The importance Memento's users see: the stored number faded by type unless exempt (the engine's rule). */
    static double importance(Memory m, Instant now) {
        return LifecyclePolicy.MEMENTO.importance(m, now);
    }

    // --- reading ------------------------------------------------------------------------------------------

    List<ExportRecord> records(String zone) {
        List<ExportRecord> out = new ArrayList<>();
        engines.get().records(zone, out::add);
        return out;
    }

    static boolean live(Memory m, Instant now) {
        return m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now);
    }

    Map<String, Object> render(Memory m, Clock clock) {
        Instant now = clock.instant();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("id", m.id());
        f.put("content", m.content());
        f.put("topic", topicOf(m));
        f.put("type", typeOf(m));
        f.put("keywords", keywordsOf(m));
        f.put("importance", importance(m, now));
        f.put("ttl_tier", tier(m, now));
        f.put("is_anchor", m.pinned());
        f.put("access_count", m.accessCount());
        f.put("created_at", m.createdAt().toString());
        caseFields(m, f);
        if (m.supersededBy() != null) f.put("superseded_by", m.supersededBy());
        return f;
    }

    /**
     * remember's v3 case fields, as Memento's recall returns them: only those the fragment has ({@code case_id},
     * {@code goal}, {@code outcome}, {@code phase}, {@code resolution_status}, {@code assertion_status} unless
     * observed, {@code context_summary}, and {@code affect} unless neutral). The short ones are tags, the texts the
     * engine's notes of the memory.
     */
    void caseFields(Memory m, Map<String, Object> f) {
        String caseTag = null, phaseTag = null, resolution = null, assertion = null, affect = null;
        for (String t : m.tags()) {
            if (t.startsWith(CASE)) caseTag = t;
            else if (t.startsWith(PHASE)) phaseTag = t;
            else if (t.startsWith(RESOLUTION)) resolution = t.substring(RESOLUTION.length());
            else if (t.startsWith(ASSERTION)) assertion = t.substring(ASSERTION.length());
            else if (t.startsWith(AFFECT)) affect = t.substring(AFFECT.length());
        }
        Map<String, String> notes = engines.get().notes(m.zone(), m.id());
        if (caseTag != null) f.put("case_id", word(caseTag, CASE));
        if (notes.containsKey(GOAL)) f.put("goal", notes.get(GOAL));
        if (notes.containsKey(OUTCOME)) f.put("outcome", notes.get(OUTCOME));
        if (phaseTag != null) f.put("phase", word(phaseTag, PHASE));
        if (resolution != null) f.put("resolution_status", resolution);
        if (assertion != null) f.put("assertion_status", assertion);
        if (notes.containsKey(CONTEXT_SUMMARY)) f.put("context_summary", notes.get(CONTEXT_SUMMARY));
        if (affect != null) f.put("affect", affect);
    }

    static int tokens(String text) {
        return (text.length() + 3) / 4;
    }
}
