package dev.engram.analysis;

import dev.engram.analysis.QueryNode.And;
import dev.engram.analysis.QueryNode.Kind;
import dev.engram.analysis.QueryNode.Not;
import dev.engram.analysis.QueryNode.Or;
import dev.engram.analysis.QueryNode.Phrase;
import dev.engram.analysis.QueryNode.Term;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Elasticsearch query-string syntax as agents write it for brain-tools' {@code search_nodes}
 * ({@code AND OR NOT && || ! + -}, parentheses, {@code "phrases"} and {@code "phrase"~N},
 * {@code *} and {@code ?}, {@code term~} / {@code term~N}, {@code ^N}, {@code field:value}), mapped
 * onto Engram's ranked recall: the positive words become the ranking text, and the boolean
 * expression becomes a filter on the ranked hits. Parsing never fails: unbalanced quotes and
 * parentheses close at the end, dangling operators are dropped, a field prefix is ignored (every
 * field is searched), ranges and regular expressions are read as their words.
 * <p>
 * A query of plain words (no operator, quote, wildcard or fuzzy mark) has no filter: ranking alone
 * decides, as brain-tools' own {@code multi_match} path did. With syntax, words side by side must all
 * match (Elasticsearch's {@code default_operator AND}, which brain-tools sets). A {@code ?} ending a
 * word ({@code "is it down?"}) is punctuation, not a wildcard: agents end questions with it.
 *
 * @param original   the query as sent
 * @param expression the parsed tree (an empty {@link And} for a blank query)
 * @param hasSyntax  whether anything beyond plain words was used, i.e. whether {@link #matches} filters
 */
public record QueryString(String original, QueryNode expression, boolean hasSyntax) {
    /** brain-tools' {@code phrase_slop}: a phrase matches with up to two words in between. */
    public static final int DEFAULT_PHRASE_SLOP = 2;

    public QueryString {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(expression, "expression");
    }

    public static QueryString parse(String query) {
        String q = query == null ? "" : query;
        Parser p = new Parser(new Lexer(q).tokens());
        QueryNode tree = p.query();
        return new QueryString(q, tree, p.syntax);
    }

    /** Whether the hits need filtering with {@link #matches}. */
    public boolean filters() {
        return hasSyntax;
    }

    /**
     * Whether the query holds nothing to search for: no word, phrase or pattern, negated or not (only
     * operators, brackets, quotes or punctuation: {@code %}, {@code AND}, {@code (((}, {@code ""}, a bare
     * {@code *}). Elasticsearch's analyser gets no token from such a query, so it matches nothing.
     */
    public boolean isEmpty() {
        return leaves(expression, false).isEmpty() && leaves(expression, true).isEmpty();
    }

    /** Whether the query uses {@code *}, {@code ?} or {@code ~}, which the ranking text alone cannot find. */
    public boolean hasPatterns() {
        return leaves(expression, false).stream().anyMatch(t -> t instanceof Term term && term.kind() != Kind.WORD);
    }

    /** The words to rank by: every term and phrase not under a NOT, markers stripped, in query order. */
    public String rankingText() {
        return rankingText(t -> List.of());
    }

    /**
     * Like {@link #rankingText()}, adding the words {@code expand} gives for each pattern term (e.g.
     * the words of the zone that {@code iapt*} or {@code typscript~} matches).
     */
    public String rankingText(Function<Term, Collection<String>> expand) {
        Set<String> words = new LinkedHashSet<>();
        for (QueryNode leaf : leaves(expression, false)) {
            if (leaf instanceof Term t) {
                String stem = t.text().replace("*", "").replace("?", "");
                if (!stem.isEmpty()) words.add(stem);
                if (t.kind() != Kind.WORD) words.addAll(expand.apply(t));
            } else if (leaf instanceof Phrase ph) {
                words.addAll(ph.words());
            }
        }
        return String.join(" ", words);
    }

    /** The positive pattern terms ({@code *}, {@code ?}, {@code ~}), for a caller that expands them. */
    public List<Term> patternTerms() {
        return leaves(expression, false).stream().filter(n -> n instanceof Term t && t.kind() != Kind.WORD)
                .map(n -> (Term) n).toList();
    }

    /** Whether a text (an entity's name, type and observations) passes the filter; always true without syntax. */
    public boolean matches(String text) {
        return !hasSyntax || evaluate(expression, fold(text));
    }

    /** Whether {@code word} (already folded) matches a pattern or word term. */
    public static boolean termMatches(Term t, String word) {
        return switch (t.kind()) {
            case WORD -> sameWord(word, t.text());
            case PREFIX -> word.startsWith(t.text().substring(0, t.text().length() - 1));
            case WILDCARD -> wildcard(t.text()).matcher(word).matches();
            case FUZZY -> distanceAtMost(t.text(), word, t.fuzziness() >= 0 ? t.fuzziness() : autoFuzziness(t.text()));
        };
    }

    /**
     * Lower case, accents dropped, split into words of letters and digits: how both sides are compared. Composed
     * again after the marks go: Hangul decomposes into jamo, which no index holds (the ranking text comes from here).
     */
    public static List<String> fold(String text) {
        if (text == null || text.isEmpty()) return List.of();
        String plain = Normalizer.normalize(Words.withoutAccents(text), Normalizer.Form.NFC);
        return Words.runs(plain.toLowerCase(Locale.ROOT));
    }

    private static boolean evaluate(QueryNode n, List<String> words) {
        if (n instanceof Term t) return words.stream().anyMatch(w -> termMatches(t, w));
        if (n instanceof Phrase p) return phraseIn(p, words);
        if (n instanceof And a) return a.all().stream().allMatch(c -> evaluate(c, words));
        if (n instanceof Or o) return o.any().isEmpty() || o.any().stream().anyMatch(c -> evaluate(c, words));
        return !evaluate(((Not) n).negated(), words);
    }

    /** The phrase's words in order from some start, with at most {@code slop} other words in between. */
    private static boolean phraseIn(Phrase p, List<String> words) {
        List<String> want = p.words();
        if (want.isEmpty()) return true;
        for (int start = 0; start < words.size(); start++) {
            if (!sameWord(words.get(start), want.get(0))) continue;
            int at = start, gaps = 0, matched = 1;
            for (int i = start + 1; i < words.size() && matched < want.size() && gaps <= p.slop(); i++) {
                if (sameWord(words.get(i), want.get(matched))) {
                    matched++;
                    at = i;
                } else {
                    gaps++;
                }
            }
            if (matched == want.size() && at - start + 1 - want.size() <= p.slop()) return true;
        }
        return false;
    }

    /** Equal, or equal but for a plural ending s / es on one side ("service" / "services", "box" / "boxes"). */
    private static boolean sameWord(String a, String b) {
        if (a.equals(b)) return true;
        String longer = a.length() > b.length() ? a : b, shorter = longer == a ? b : a;
        if (shorter.length() < 2 || !longer.startsWith(shorter)) return false;
        String rest = longer.substring(shorter.length());
        return rest.equals("s") || rest.equals("es");
    }

    private static Pattern wildcard(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') re.append(".*");
            else if (c == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }

    /** Elasticsearch's AUTO: exact up to 2 characters, one edit up to 5, two beyond. */
    static int autoFuzziness(String word) {
        return word.length() <= 2 ? 0 : word.length() <= 5 ? 1 : 2;
    }

    /** Levenshtein distance within {@code max}, with transpositions counting one (as Lucene's fuzzy does). */
    static boolean distanceAtMost(String a, String b, int max) {
        if (Math.abs(a.length() - b.length()) > max) return false;
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()] <= max;
    }

    private static List<QueryNode> leaves(QueryNode n, boolean negated) {
        List<QueryNode> out = new ArrayList<>();
        collect(n, negated, out);
        return out;
    }

    private static void collect(QueryNode n, boolean negated, List<QueryNode> out) {
        if (n instanceof Term || n instanceof Phrase) {
            if (!negated) out.add(n);
        } else if (n instanceof And a) {
            a.all().forEach(c -> collect(c, negated, out));
        } else if (n instanceof Or o) {
            o.any().forEach(c -> collect(c, negated, out));
        } else {
            collect(((Not) n).negated(), !negated, out);
        }
    }

    // ---- lexing ----

    private enum Type { LPAREN, RPAREN, AND, OR, NOT, MUST, MUST_NOT, TERM, PHRASE }

    private record Token(Type type, String text, int slop, int fuzziness, boolean fuzzy, double boost) {
        static Token of(Type t) {
            return new Token(t, null, 0, -1, false, 1);
        }
    }

    private static final class Lexer {
        private final String s;
        private int i;
        private final List<Token> out = new ArrayList<>();

        Lexer(String s) {
            this.s = s;
        }

        List<Token> tokens() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '(') {
                    out.add(Token.of(Type.LPAREN));
                    i++;
                } else if (c == ')') {
                    out.add(Token.of(Type.RPAREN));
                    i++;
                } else if (c == '"') {
                    phrase();
                } else if ((c == '+' || c == '-' || c == '!') && i + 1 < s.length() && !Character.isWhitespace(s.charAt(i + 1))) {
                    out.add(Token.of(c == '+' ? Type.MUST : c == '-' ? Type.MUST_NOT : Type.NOT));
                    i++;
                } else if (s.startsWith("&&", i)) {
                    out.add(Token.of(Type.AND));
                    i += 2;
                } else if (s.startsWith("||", i)) {
                    out.add(Token.of(Type.OR));
                    i += 2;
                } else {
                    word();
                }
            }
            return out;
        }

        private void phrase() {
            int end = s.indexOf('"', i + 1);
            String body = end < 0 ? s.substring(i + 1) : s.substring(i + 1, end);
            i = end < 0 ? s.length() : end + 1;
            int slop = DEFAULT_PHRASE_SLOP;
            if (i < s.length() && s.charAt(i) == '~') {
                i++;
                int start = i;
                while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
                if (i > start && i - start < 4) slop = Integer.parseInt(s.substring(start, i));
            }
            double boost = boost();
            out.add(new Token(Type.PHRASE, body, slop, -1, false, boost));
        }

        private void word() {
            StringBuilder w = new StringBuilder();
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    w.append(s.charAt(i + 1));
                    i += 2;
                    continue;
                }
                if (Character.isWhitespace(c) || c == '(' || c == ')' || c == '"' || c == '~' || c == '^') break;
                w.append(c);
                i++;
            }
            boolean fuzzy = false;
            int fuzziness = -1;
            if (i < s.length() && s.charAt(i) == '~') {
                fuzzy = true;
                i++;
                int start = i;
                while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
                String n = s.substring(start, i);
                if (n.matches("[0-2]")) fuzziness = Integer.parseInt(n);
            }
            double boost = boost();
            String text = w.toString();
            switch (text) {
                case "AND" -> out.add(Token.of(Type.AND));
                case "OR" -> out.add(Token.of(Type.OR));
                case "NOT" -> out.add(Token.of(Type.NOT));
                default -> {
                    if (!text.isEmpty()) out.add(new Token(Type.TERM, text, 0, fuzziness, fuzzy, boost));
                }
            }
        }

        private double boost() {
            if (i >= s.length() || s.charAt(i) != '^') return 1;
            i++;
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
            try {
                return i > start ? Double.parseDouble(s.substring(start, i)) : 1;
            } catch (NumberFormatException e) {
                return 1;
            }
        }
    }

    // ---- parsing: OR binds loosest, then AND (explicit or side by side), then NOT / + / - ----

    /**
     * Parentheses nest at most this deep; deeper ones are read as if absent. The parser recurses per
     * level, and a query of thousands of '(' must not exhaust the stack of a server thread.
     */
    static final int MAX_NESTING = 32;

    private static final class Parser {
        private final List<Token> tokens;
        private int at;
        private int depth;
        boolean syntax;

        Parser(List<Token> tokens) {
            this.tokens = tokens;
        }

        QueryNode query() {
            QueryNode q = or();
            while (at < tokens.size()) {
                // a stray ')' : skip it and read on, so nothing the agent wrote is lost
                at++;
                syntax = true;
                QueryNode more = or();
                q = new And(List.of(q, more));
            }
            return q;
        }

        private QueryNode or() {
            List<QueryNode> any = new ArrayList<>();
            any.add(and());
            while (peek(Type.OR)) {
                at++;
                syntax = true;
                any.add(and());
            }
            return any.size() == 1 ? any.get(0) : new Or(any);
        }

        private QueryNode and() {
            List<QueryNode> all = new ArrayList<>();
            while (at < tokens.size() && !peek(Type.OR) && !peek(Type.RPAREN)) {
                if (peek(Type.AND)) {
                    at++;
                    syntax = true;
                    continue;
                }
                QueryNode u = unary();
                if (u != null) all.add(u);
            }
            return all.size() == 1 ? all.get(0) : new And(all);
        }

        private QueryNode unary() {
            Token t = tokens.get(at++);
            switch (t.type()) {
                case NOT, MUST_NOT, MUST -> {
                    syntax = true;
                    // a run of prefixes ("!!!-x", "NOT NOT x") is read in a loop, not by recursion: only
                    // whether an odd number of them negate matters
                    boolean negate = t.type() != Type.MUST;
                    while (at < tokens.size() && (peek(Type.NOT) || peek(Type.MUST_NOT) || peek(Type.MUST))) {
                        if (!peek(Type.MUST)) negate = !negate;
                        at++;
                    }
                    if (at >= tokens.size() || peek(Type.OR) || peek(Type.RPAREN) || peek(Type.AND)) return null;
                    QueryNode operand = unary();
                    return operand == null ? null : negate ? new Not(operand) : operand;
                }
                case LPAREN -> {
                    syntax = true;
                    if (depth >= MAX_NESTING) return null; // read on as if this '(' were not there
                    depth++;
                    try {
                        QueryNode inner = or();
                        if (peek(Type.RPAREN)) at++;
                        return inner;
                    } finally {
                        depth--;
                    }
                }
                case PHRASE -> {
                    syntax = true;
                    List<String> words = fold(t.text());
                    return words.isEmpty() ? null : new Phrase(words, t.slop(), t.boost());
                }
                case TERM -> {
                    return term(t);
                }
                default -> {
                    return null;
                }
            }
        }

        private QueryNode term(Token t) {
            String text = t.text();
            int colon = text.indexOf(':');
            if (colon > 0 && colon < text.length() - 1 && text.substring(0, colon).matches("[A-Za-z_.]+")) {
                syntax = true; // name:foo, entityType:Person - every field is searched
                text = text.substring(colon + 1);
            }
            if (t.boost() != 1) syntax = true;
            text = text.replaceAll("^[\\[{/]+|[\\]}/]+$", "");
            // a '?' ending the word is a question mark, not a wildcard
            String bare = text.replaceAll("[?!.,;:]+$", "");
            boolean pattern = bare.contains("*") || bare.contains("?");
            if (t.fuzzy() || pattern) syntax = true;
            if (pattern) {
                String folded = foldPattern(bare);
                if (folded.isEmpty() || folded.replace("*", "").replace("?", "").isEmpty()) return null;
                boolean prefixOnly = folded.indexOf('*') == folded.length() - 1 && !folded.contains("?");
                return new Term(folded, prefixOnly ? Kind.PREFIX : Kind.WILDCARD, -1, t.boost());
            }
            List<String> parts = fold(bare);
            if (parts.isEmpty()) return null;
            if (parts.size() > 1) return new Phrase(parts, 0, t.boost());
            return new Term(parts.get(0), t.fuzzy() ? Kind.FUZZY : Kind.WORD, t.fuzziness(), t.boost());
        }

        /** A wildcard word folded like text, keeping {@code *} and {@code ?}, dropping other punctuation. */
        private static String foldPattern(String p) {
            String plain = Words.withoutAccents(p).toLowerCase(Locale.ROOT);
            return plain.replaceAll("[^\\p{L}\\p{N}*?]+", "");
        }

        private boolean peek(Type type) {
            return at < tokens.size() && tokens.get(at).type() == type;
        }
    }
}
