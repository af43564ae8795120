package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;

/**
 * The AUTO rule, applied to a cleaned result that is over budget (docs/proxy.md lists it):
 * <ol>
 * <li>JSON array of at least 20 items, or an object holding one: {@code schema_pruning};
 * <li>JSON object with at least 3 nested object/array values: {@code extract_fields};
 * <li>other JSON: {@code progressive} (cutting JSON breaks it; chunks keep it exact), or
 *     {@code selective} past {@link #LONG_FACTOR} times the budget, where reading on chunk by chunk
 *     costs more calls than picking the section a question is about;
 * <li>markdown with at least {@link #MIN_SKELETON_HEADINGS} headings that names HTTP endpoints
 *     ({@code GET /users}; API docs, one section per endpoint): {@code skeleton}, memtomem-stm's rule;
 * <li>markdown with at least {@link #MIN_HEADINGS} headings, or at least {@link #MIN_FENCES} code
 *     fences: {@code hybrid}, or {@code selective} past {@link #SELECTIVE_FACTOR} times the budget,
 *     where a head would show too small a share to be worth its tokens;
 * <li>anything else: {@code progressive}, or {@code hybrid} past {@link #LONG_FACTOR} times the budget.
 * </ol>
 * Truncation is never the first choice: it loses text. It is the last rung of the fallback ladder.
 */
public final class StrategyChooser {
    public static final int MIN_HEADINGS = 5;
    /** memtomem-stm's: four headings and an HTTP endpoint make API docs. */
    public static final int MIN_SKELETON_HEADINGS = 4;
    /** Three code blocks (each has two fences). */
    public static final int MIN_FENCES = 6;
    public static final int SELECTIVE_FACTOR = 8;
    /**
     * Past three budgets, a question about the end of a text takes three or more read_more calls;
     * a table of contents reaches any part in one (docs/benchmarks.md (section 8) measured this).
     */
    public static final int LONG_FACTOR = 3;

    private StrategyChooser() {
    }

    public static CompressionMode choose(ContentShape shape, int chars, int budget) {
        if (shape.json() != null) {
            if (SchemaPruningStrategy.applies(shape.json())) return CompressionMode.SCHEMA_PRUNING;
            if (FieldExtractionStrategy.applies(shape.json())) return CompressionMode.EXTRACT_FIELDS;
            return chars > (long) LONG_FACTOR * budget ? CompressionMode.SELECTIVE : CompressionMode.PROGRESSIVE;
        }
        if (shape.headings() >= MIN_SKELETON_HEADINGS && shape.httpEndpoints()) return CompressionMode.SKELETON;
        if (shape.headings() >= MIN_HEADINGS || shape.codeFences() >= MIN_FENCES) {
            return chars > (long) SELECTIVE_FACTOR * budget ? CompressionMode.SELECTIVE : CompressionMode.HYBRID;
        }
        return chars > (long) LONG_FACTOR * budget ? CompressionMode.HYBRID : CompressionMode.PROGRESSIVE;
    }
}
