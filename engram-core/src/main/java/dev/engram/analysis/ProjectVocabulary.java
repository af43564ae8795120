package dev.engram.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Topics from a project's dependency manifests (pom.xml, build.gradle(.kts), package.json,
 * Cargo.toml, go.mod, pyproject.toml, requirements.txt) in its root folder: each dependency
 * becomes a tag whose keyword is its short name. Deliberately regex-based: a manifest we cannot
 * parse costs a few tags, never an error.
 */
public final class ProjectVocabulary {
    /** Enough for real projects; beyond it the vocabulary only adds noise. */
    static final int MAX_TOPICS = 200;

    private static final Pattern POM_ARTIFACT = Pattern.compile("<artifactId>\\s*([^<\\s]+)\\s*</artifactId>");
    private static final Pattern GRADLE_DEP = Pattern.compile("[\"']([\\w.\\-]+):([\\w.\\-]+)(?::[^\"']*)?[\"']");
    private static final Pattern JSON_DEPS = Pattern.compile("\"(?:dependencies|devDependencies|peerDependencies)\"\\s*:\\s*\\{([^}]*)}");
    private static final Pattern JSON_KEY = Pattern.compile("\"([^\"]+)\"\\s*:");
    private static final Pattern TOML_DEP = Pattern.compile("(?m)^\\s*([A-Za-z0-9_\\-]+)\\s*=");
    private static final Pattern GO_REQUIRE = Pattern.compile("(?m)^\\s*(?:require\\s+)?([\\w.\\-]+(?:/[\\w.\\-]+)+)\\s+v\\d");
    private static final Pattern PY_REQ = Pattern.compile("(?m)^\\s*([A-Za-z0-9_.\\-]+)\\s*(?:[<>=!~\\[;]|$)");
    private static final Pattern PY_LIST_ITEM = Pattern.compile("[\"']([A-Za-z0-9_.\\-]+)\\s*(?:[<>=!~\\[;][^\"']*)?[\"']");
    private static final Set<String> NOISE = Set.of("java", "junit", "maven", "plugin", "core", "api", "common",
            "commons", "utils", "python", "typescript", "types", "node", "test", "tests", "version", "name",
            "edition", "description", "license", "authors", "readme", "package", "workspace", "members");

    private ProjectVocabulary() {
    }

    /** Topics found in {@code root}; empty when root is null or holds no manifest. */
    public static Map<String, List<String>> scan(Path root) {
        Set<String> names = new LinkedHashSet<>();
        if (root != null) {
            read(root.resolve("pom.xml")).ifPresent(s -> collect(POM_ARTIFACT, s, 1, names));
            for (String f : List.of("build.gradle", "build.gradle.kts")) {
                read(root.resolve(f)).ifPresent(s -> collect(GRADLE_DEP, s, 2, names));
            }
            read(root.resolve("package.json")).ifPresent(s -> {
                Matcher block = JSON_DEPS.matcher(s);
                while (block.find()) collect(JSON_KEY, block.group(1), 1, names);
            });
            read(root.resolve("Cargo.toml")).ifPresent(s -> {
                int at = s.indexOf("[dependencies]");
                if (at >= 0) {
                    String section = s.substring(at + "[dependencies]".length());
                    int next = section.indexOf("\n[");
                    collect(TOML_DEP, next >= 0 ? section.substring(0, next) : section, 1, names);
                }
            });
            read(root.resolve("go.mod")).ifPresent(s -> collect(GO_REQUIRE, s, 1, names));
            read(root.resolve("requirements.txt")).ifPresent(s -> collect(PY_REQ, s, 1, names));
            read(root.resolve("pyproject.toml")).ifPresent(s -> {
                int at = s.indexOf("dependencies");
                if (at >= 0) {
                    int end = s.indexOf(']', at);
                    collect(PY_LIST_ITEM, s.substring(at, end > at ? end : s.length()), 1, names);
                }
            });
        }
        Map<String, List<String>> topics = new LinkedHashMap<>();
        for (String name : names) {
            String tag = shortName(name);
            if (tag.length() >= 2 && !NOISE.contains(tag) && topics.size() < MAX_TOPICS) {
                topics.putIfAbsent(tag, List.of(tag));
            }
        }
        return topics;
    }

    /** {@code @scope/react-dom} → react-dom, {@code github.com/x/gin} → gin, {@code lucene-core} → lucene. */
    static String shortName(String dependency) {
        String n = dependency.toLowerCase(Locale.ROOT);
        n = n.substring(n.lastIndexOf('/') + 1);
        n = n.replaceAll("[^a-z0-9.\\-]", "");
        for (String suffix : List.of("-core", "-js", "-api", "-common", "-client")) {
            if (n.endsWith(suffix) && n.length() > suffix.length() + 1) {
                n = n.substring(0, n.length() - suffix.length());
            }
        }
        return n;
    }

    private static void collect(Pattern p, String text, int group, Set<String> out) {
        Matcher m = p.matcher(text);
        while (m.find()) out.add(m.group(group));
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            if (Files.isRegularFile(file) && Files.size(file) < 1_000_000) {
                return java.util.Optional.of(Files.readString(file, StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable manifest only costs project tags; inference still has the built-in topics
        }
        return java.util.Optional.empty();
    }
}
