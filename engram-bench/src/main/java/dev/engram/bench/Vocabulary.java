package dev.engram.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Words that coding-agent memories are made of: a fixed head of real technology terms, plus a long
 * tail of project identifiers drawn with a Zipf law, because real stores repeat a few names
 * (the main service, the flaky test) very often and most names rarely. Immutable once built.
 */
final class Vocabulary {
    static final List<String> LIBRARIES = List.of(
            "redis", "postgres", "sqlite", "kafka", "rabbitmq", "zod", "joi", "jest", "vitest", "webpack",
            "vite", "docker", "kubernetes", "terraform", "nginx", "graphql", "grpc", "protobuf", "jackson",
            "lucene", "spring", "hibernate", "flyway", "gradle", "maven", "pnpm", "eslint", "prettier",
            "typescript", "react", "nextjs", "tailwind", "prisma", "express", "fastify", "django", "celery",
            "elasticsearch", "prometheus", "grafana", "sentry", "openapi", "playwright", "cypress", "axios",
            "lodash", "pydantic", "sqlalchemy", "alembic", "pytest", "mypy", "ruff", "cargo", "tokio", "serde",
            "netty", "jetty", "junit", "mockito", "testcontainers", "helm", "argocd", "github-actions", "bazel");
    static final List<String> CONCERNS = List.of(
            "validation", "caching", "retries", "timeout", "pagination", "logging", "migration", "deployment",
            "authentication", "authorization", "rate-limiting", "serialization", "connection-pool", "backpressure",
            "idempotency", "tracing", "metrics", "config", "secrets", "encoding", "locale", "timezone",
            "concurrency", "deadlock", "memory-leak", "cold-start", "build-cache", "flaky-test", "schema",
            "indexing", "compression", "cors", "csrf", "session", "websocket", "upload", "webhook", "cron");
    static final List<String> ERRORS = List.of(
            "NullPointerException", "ECONNRESET", "ETIMEDOUT", "OOMKilled", "SQLITE_BUSY", "deadlock detected",
            "401 Unauthorized", "429 Too Many Requests", "503 Service Unavailable", "ClassCastException",
            "TypeError: undefined is not a function", "segfault", "ConcurrentModificationException",
            "LockObtainFailedException", "certificate has expired", "port already in use", "EMFILE");
    static final List<String> REASONS = List.of(
            "it was too slow at startup", "its types drifted from the schema", "it leaked connections under load",
            "the licence changed", "it broke on Node 20", "the team already knows it", "it needs no daemon",
            "it does not support streaming", "it doubled the bundle size", "it retried non-idempotent calls");
    static final List<String> DIRS = List.of(
            "src/api", "src/web", "src/jobs", "src/db", "src/auth", "lib/core", "services/billing",
            "services/search", "infra/k8s", "scripts", "tests/e2e", "packages/ui");
    static final List<String> EXTENSIONS = List.of(".ts", ".java", ".py", ".go", ".rs", ".tsx", ".yaml", ".sql");

    private static final String[] ROOTS = {
        "order", "invoice", "user", "account", "payment", "cart", "search", "index", "token", "session",
        "report", "export", "import", "ledger", "queue", "worker", "tenant", "billing", "audit", "webhook",
        "catalog", "price", "stock", "shipment", "refund", "coupon", "profile", "avatar", "email", "sms"};
    private static final String[] SUFFIXES = {
        "Service", "Repository", "Controller", "Handler", "Client", "Mapper", "Job", "Store", "Cache",
        "Validator", "Resolver", "Factory", "Parser", "Router", "Scheduler", "Gateway", "Util", "Config"};
    private static final String[] PREFIXES = {"", "", "", "legacy", "async", "batch", "shared", "internal", "v2"};

    private final List<String> identifiers;
    private final double[] zipfCumulative;

    private Vocabulary(List<String> identifiers, double zipfExponent) {
        this.identifiers = List.copyOf(identifiers);
        this.zipfCumulative = new double[identifiers.size()];
        double sum = 0;
        for (int i = 0; i < identifiers.size(); i++) {
            sum += 1.0 / Math.pow(i + 1, zipfExponent);
            zipfCumulative[i] = sum;
        }
        for (int i = 0; i < zipfCumulative.length; i++) {
            zipfCumulative[i] /= sum;
        }
    }

    /** {@code tailSize} distinct identifiers such as {@code batchInvoiceMapper}, ranked by a seeded shuffle. */
    static Vocabulary build(long seed, int tailSize) {
        Random random = new Random(seed);
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>(tailSize);
        int capacity = ROOTS.length * ROOTS.length * SUFFIXES.length * PREFIXES.length;
        if (tailSize > capacity / 4) throw new IllegalArgumentException("tailSize must be <= " + capacity / 4 + ", got " + tailSize);
        while (out.size() < tailSize) {
            String prefix = PREFIXES[random.nextInt(PREFIXES.length)];
            String root = ROOTS[random.nextInt(ROOTS.length)];
            String second = random.nextInt(3) == 0 ? capitalize(ROOTS[random.nextInt(ROOTS.length)]) : "";
            String name = prefix.isEmpty()
                    ? root + second + SUFFIXES[random.nextInt(SUFFIXES.length)]
                    : prefix + capitalize(root) + second + SUFFIXES[random.nextInt(SUFFIXES.length)];
            if (seen.add(name)) out.add(name);
        }
        return new Vocabulary(out, 1.07);
    }

    /** A tail identifier; rank 1 is drawn most often (Zipf). */
    String identifier(Random random) {
        double u = random.nextDouble();
        int lo = 0, hi = zipfCumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (zipfCumulative[mid] < u) lo = mid + 1; else hi = mid;
        }
        return identifiers.get(lo);
    }

    static <T> T pick(List<T> list, Random random) {
        return list.get(random.nextInt(list.size()));
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
