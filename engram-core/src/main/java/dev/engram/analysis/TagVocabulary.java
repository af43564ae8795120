package dev.engram.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Topics that tag inference recognises: a built-in set of common engineering topics plus, when
 * known, the project's own dependencies ({@link ProjectVocabulary}). A topic matches when any of
 * its keywords is a word of the text (multi-word keywords match as phrases).
 */
public final class TagVocabulary {
    /** Inferred tags per memory; more would dilute tag filters and the tag part of quality. */
    public static final int MAX_INFERRED = 4;

    private static final Map<String, List<String>> BUILT_IN = builtIn();

    private final Map<String, List<String>> topics;

    private TagVocabulary(Map<String, List<String>> topics) {
        this.topics = topics;
    }

    public static TagVocabulary builtInOnly() {
        return new TagVocabulary(BUILT_IN);
    }

    /** Built-in topics plus project topics; a project topic never replaces a built-in one. */
    public static TagVocabulary withProject(Map<String, List<String>> project) {
        Map<String, List<String>> all = new LinkedHashMap<>(BUILT_IN);
        project.forEach(all::putIfAbsent);
        return new TagVocabulary(Map.copyOf(all));
    }

    public Set<String> topics() {
        return topics.keySet();
    }

    /** Tags whose keywords occur in the text, most keyword hits first, at most {@link #MAX_INFERRED}. */
    public List<String> infer(String text) {
        List<String> words = Words.of(text);
        Set<String> wordSet = Set.copyOf(words);
        String joined = " " + String.join(" ", words) + " ";
        List<Map.Entry<String, Integer>> hits = new ArrayList<>();
        for (Map.Entry<String, List<String>> topic : topics.entrySet()) {
            int n = 0;
            for (String kw : topic.getValue()) {
                boolean hit = kw.indexOf(' ') >= 0 ? joined.contains(" " + kw + " ") : wordSet.contains(kw);
                if (hit) n++;
            }
            if (n > 0) hits.add(Map.entry(topic.getKey(), n));
        }
        hits.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return hits.stream().limit(MAX_INFERRED).map(Map.Entry::getKey).toList();
    }

    private static Map<String, List<String>> builtIn() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("redis", List.of("redis", "jedis", "lettuce", "ioredis", "noauth"));
        m.put("auth", List.of("auth", "authentication", "authorization", "login", "logout", "oauth", "jwt", "token", "session", "password", "sso", "credentials"));
        m.put("api", List.of("api", "endpoint", "rest", "graphql", "grpc", "http", "request", "response", "route", "openapi"));
        m.put("db", List.of("db", "database", "sql", "postgres", "postgresql", "mysql", "sqlite", "query", "migration", "schema", "index", "transaction", "orm", "jdbc"));
        m.put("security", List.of("security", "xss", "csrf", "injection", "vulnerability", "encrypt", "encryption", "secret", "cve", "tls", "ssl", "sanitize"));
        m.put("test", List.of("test", "tests", "testing", "junit", "jest", "vitest", "pytest", "mock", "fixture", "assert", "coverage", "flaky"));
        m.put("deploy", List.of("deploy", "deployment", "release", "kubernetes", "k8s", "helm", "production", "staging", "rollout", "rollback"));
        m.put("config", List.of("config", "configuration", "env", "environment", "settings", "yaml", "toml", "dotenv", "flag", "flags"));
        m.put("performance", List.of("performance", "slow", "latency", "throughput", "optimize", "optimization", "benchmark", "profiling", "memory leak", "cpu"));
        m.put("refactor", List.of("refactor", "refactoring", "cleanup", "rename", "extract", "simplify"));
        m.put("error", List.of("error", "exception", "bug", "crash", "failure", "fails", "failed", "stacktrace", "panic", "traceback"));
        m.put("logging", List.of("log", "logs", "logging", "logger", "slf4j", "log4j", "logback", "tracing", "observability"));
        m.put("types", List.of("type", "types", "typescript", "generic", "generics", "interface", "typing", "mypy"));
        m.put("async", List.of("async", "await", "promise", "future", "thread", "threads", "concurrency", "concurrent", "race", "deadlock", "coroutine"));
        m.put("state", List.of("state", "redux", "store", "zustand", "context", "reducer", "signal"));
        m.put("ui", List.of("ui", "css", "html", "react", "vue", "svelte", "component", "button", "layout", "style", "tailwind", "frontend"));
        m.put("storage", List.of("storage", "file", "files", "disk", "s3", "bucket", "blob", "upload", "filesystem"));
        m.put("email", List.of("email", "mail", "smtp", "inbox", "newsletter", "sendgrid"));
        m.put("payment", List.of("payment", "payments", "stripe", "billing", "invoice", "checkout", "subscription", "paypal"));
        m.put("webhook", List.of("webhook", "webhooks", "callback", "event", "events"));
        m.put("cache", List.of("cache", "caching", "cached", "ttl", "invalidate", "invalidation", "memcached"));
        m.put("docker", List.of("docker", "container", "containers", "dockerfile", "compose", "image"));
        m.put("git", List.of("git", "branch", "commit", "merge", "rebase", "pull request", "github", "gitlab"));
        m.put("build", List.of("build", "maven", "gradle", "npm", "webpack", "vite", "compile", "compiler", "bundle", "dependency", "dependencies"));
        m.put("ci", List.of("ci", "pipeline", "workflow", "actions", "jenkins"));
        m.put("network", List.of("network", "dns", "timeout", "proxy", "socket", "tcp", "cors", "websocket"));
        return Map.copyOf(m);
    }
}
