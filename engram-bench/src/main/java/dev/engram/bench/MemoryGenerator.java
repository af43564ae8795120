package dev.engram.bench;

import static dev.engram.bench.Vocabulary.pick;

import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Deterministic stream of realistic coding-agent memories and the 2-3 word queries an agent would
 * recall them with. The same seed gives the same memories and queries on every machine, so two runs
 * (or Engram and a peer) see identical text. Not thread-safe: one generator per stream.
 */
final class MemoryGenerator {
    /** Zones and their weights: most memories live in the default zone, the rest in a few projects. */
    static final List<String> ZONES = List.of(MemoryRules.DEFAULT_ZONE, MemoryRules.DEFAULT_ZONE,
            MemoryRules.DEFAULT_ZONE, "billing-api", "web-app", "infra", "search-svc");
    /** Large enough that 100k memories still meet unseen identifiers (a Zipf tail, not a closed set). */
    private static final int TAIL_IDENTIFIERS = 5_000;

    private final Random random;
    private final Vocabulary vocabulary;

    MemoryGenerator(long seed) {
        this.random = new Random(seed);
        this.vocabulary = Vocabulary.build(seed ^ 0x5DEECE66DL, TAIL_IDENTIFIERS);
    }

    SyntheticMemory next() {
        int kind = random.nextInt(8);
        MemoryType type = switch (kind) {
            case 0 -> MemoryType.DECISION;
            case 1 -> MemoryType.ERROR;
            case 2 -> MemoryType.WARNING;
            case 3 -> MemoryType.PREFERENCE;
            case 4 -> MemoryType.PROCEDURE;
            case 5 -> MemoryType.PATTERN;
            default -> MemoryType.FACT;
        };
        Set<String> tags = new LinkedHashSet<>();
        StringBuilder content = new StringBuilder(sentence(kind, tags));
        int extra = random.nextInt(10) < 6 ? random.nextInt(3) : 0; // 1-3 sentences, mostly 1-2
        for (int i = 0; i < extra && content.length() < 400; i++) {
            content.append(' ').append(sentence(random.nextInt(8), tags));
        }
        String file = random.nextInt(3) == 0 ? file() : null;
        List<String> tagList = new ArrayList<>(tags).subList(0, Math.min(tags.size(), 1 + random.nextInt(3)));
        return new SyntheticMemory(content.toString(), type, tagList, pick(ZONES, random), file);
    }

    /** A 2-3 word query built from the same distributions as the memories, so most queries hit. */
    String query() {
        return switch (random.nextInt(5)) {
            case 0 -> pick(Vocabulary.LIBRARIES, random) + " " + pick(Vocabulary.CONCERNS, random).replace('-', ' ');
            case 1 -> vocabulary.identifier(random) + " " + pick(Vocabulary.CONCERNS, random);
            case 2 -> pick(Vocabulary.LIBRARIES, random) + " " + vocabulary.identifier(random) + " "
                    + pick(Vocabulary.CONCERNS, random);
            case 3 -> vocabulary.identifier(random) + " " + firstWord(pick(Vocabulary.ERRORS, random));
            default -> pick(Vocabulary.CONCERNS, random).replace('-', ' ') + " " + pick(Vocabulary.LIBRARIES, random);
        };
    }

    /** A single keyword (library or concern): the only query shape a substring-matching server can answer. */
    String keyword() {
        return random.nextBoolean() ? pick(Vocabulary.LIBRARIES, random) : pick(Vocabulary.CONCERNS, random);
    }

    /** The zone a recall targets, drawn like the memories' zones. */
    String zone() {
        return pick(ZONES, random);
    }

    private String sentence(int kind, Set<String> tags) {
        String lib = pick(Vocabulary.LIBRARIES, random);
        String lib2 = pick(Vocabulary.LIBRARIES, random);
        String concern = pick(Vocabulary.CONCERNS, random);
        String ident = vocabulary.identifier(random);
        tags.add(lib);
        tags.add(concern);
        return switch (kind) {
            case 0 -> "Use " + lib + " for " + concern + " in " + ident + "; " + lib2 + " was dropped because "
                    + pick(Vocabulary.REASONS, random) + ".";
            case 1 -> ident + " fails with " + pick(Vocabulary.ERRORS, random) + " when " + concern
                    + " is misconfigured; fix: set the " + lib + " " + concern + " explicitly in " + file() + ".";
            case 2 -> "Never change " + concern + " in " + ident + " without running the " + lib
                    + " suite, otherwise " + vocabulary.identifier(random) + " breaks in production.";
            case 3 -> "Prefer " + lib + " over " + lib2 + " for " + concern + "; keep " + ident + " free of "
                    + lib2 + " imports.";
            case 4 -> "To fix " + concern + " in " + ident + ", run `" + lib + " " + verb() + " --" + concern
                    + "` from " + pick(Vocabulary.DIRS, random) + " and restart the worker.";
            case 5 -> ident + " wraps every " + lib + " call in " + vocabulary.identifier(random) + " so "
                    + concern + " is handled in one place.";
            case 6 -> "The " + concern + " settings for " + ident + " live in " + file() + " and are read once at startup.";
            default -> ident + " depends on " + lib + " " + (1 + random.nextInt(5)) + "." + random.nextInt(20)
                    + " for " + concern + "; upgrading past that broke " + vocabulary.identifier(random) + ".";
        };
    }

    private String verb() {
        return pick(List.of("run", "check", "migrate", "build", "sync", "reset", "verify"), random);
    }

    private String file() {
        return pick(Vocabulary.DIRS, random) + "/" + vocabulary.identifier(random) + pick(Vocabulary.EXTENSIONS, random);
    }

    private static String firstWord(String s) {
        int space = s.indexOf(' ');
        return (space < 0 ? s : s.substring(0, space)).replace(":", "");
    }
}
