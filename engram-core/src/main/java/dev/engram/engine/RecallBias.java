package dev.engram.engine;

import dev.engram.analysis.ScriptFamily;
import dev.engram.memory.Memory;
import dev.engram.rank.Contribution;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a caller favours beyond the query's words. Each bias is a contribution added to a candidate's score
 * before the limit is applied, so a favoured memory can rise into the answer, and {@code explain} names it.
 * The values are the caller's (toon-memory's profile passes toon's); the engine applies them the same way
 * for every profile.
 *
 * @param files       memories about one of these files (their {@code file}, without a {@code :line} suffix)
 *                    score {@code fileFactor} times what they scored without the bias
 * @param fileFactor  at least 1
 * @param sameScript  added when the memory is written in the query's {@link ScriptFamily}
 * @param folder      memories whose path scope (a glob) matches this path get {@code folderBoost}; null for none
 * @param folderBoost added for a matching path scope
 * @param nudge       per memory, an amount the caller knows of and the engine does not (toon's evidence level, a
 *                    file changed since the memory was written), or null for none
 */
public record RecallBias(Set<String> files, double fileFactor, double sameScript, String folder, double folderBoost,
                         Function<Memory, Nudge> nudge) {
    public static final RecallBias NONE = new RecallBias(Set.of(), 1.0, 0, null, 0, m -> null);

    /** One memory's caller-known amount, with the words {@code explain} shows for it. */
    public record Nudge(double value, String reason) {
    }

    public RecallBias {
        files = files == null ? Set.of() : files.stream().map(RecallBias::normalFile).filter(f -> !f.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        nudge = nudge == null ? m -> null : nudge;
        if (!(fileFactor >= 1 && fileFactor < 100)) throw new IllegalArgumentException("fileFactor must be 1..100, got " + fileFactor);
        if (!(Math.abs(sameScript) < 100 && Math.abs(folderBoost) < 100)) {
            throw new IllegalArgumentException("boosts must be finite and small, got " + sameScript + " and " + folderBoost);
        }
    }

    public RecallBias withFiles(java.util.Collection<String> v, double factor) {
        return new RecallBias(Set.copyOf(v), factor, sameScript, folder, folderBoost, nudge);
    }

    public RecallBias withSameScript(double v) {
        return new RecallBias(files, fileFactor, v, folder, folderBoost, nudge);
    }

    public RecallBias withFolder(String path, double boost) {
        return new RecallBias(files, fileFactor, sameScript, path, boost, nudge);
    }

    public RecallBias withNudge(Function<Memory, Nudge> v) {
        return new RecallBias(files, fileFactor, sameScript, folder, folderBoost, v);
    }

    /**
     * The file a memory's file reference names, as the bias compares it: forward slashes, no leading {@code ./},
     * no {@code :line} or {@code :line:column} suffix (toon writes {@code src/a.ts:12}).
     */
    public static String normalFile(String f) {
        String s = f.strip().replace('\\', '/');
        if (s.startsWith("./")) s = s.substring(2);
        int colon = s.lastIndexOf(':');
        // keep a Windows drive letter (C:/…); drop a trailing :line or :line:col
        while (colon > 1 && s.substring(colon + 1).chars().allMatch(Character::isDigit) && colon < s.length() - 1) {
            s = s.substring(0, colon);
            colon = s.lastIndexOf(':');
        }
        return s;
    }

    /** The contributions this bias adds to {@code m}, whose other parts sum to {@code scored}. */
    List<Contribution> contributions(Memory m, double scored, ScriptFamily queryScript) {
        List<Contribution> out = new ArrayList<>(2);
        if (fileFactor > 1 && m.file() != null && files.contains(normalFile(m.file())) && scored > 0) {
            out.add(new Contribution("file", (fileFactor - 1) * scored, () -> "about a file of this session"));
        }
        if (sameScript != 0 && queryScript != ScriptFamily.NONE
                && ScriptFamily.of(m.content() + " " + m.key() + " " + String.join(" ", m.tags())) == queryScript) {
            out.add(new Contribution("script", sameScript, () -> "written like the query"));
        }
        if (folder != null && folderBoost != 0 && m.pathScope() != null && scopeMatches(m.pathScope(), folder)) {
            out.add(new Contribution("folder", folderBoost, () -> "scoped to " + folder));
        }
        Nudge n = nudge.apply(m);
        if (n != null && n.value() != 0) out.add(new Contribution("nudge", n.value(), n::reason));
        return out;
    }

    boolean any() {
        return this != NONE;
    }

    private static boolean scopeMatches(String scope, String path) {
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + scope).matches(Path.of(path));
        } catch (RuntimeException e) {
            return false; // a scope that is not a valid glob on this OS matches nothing
        }
    }
}
