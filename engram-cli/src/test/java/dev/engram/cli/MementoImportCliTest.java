package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram import --from memento}: a {@code memento-mcp export} file, and a database built with Memento's own
 * schema (its {@code agent_memory} tables without the pgvector column, which is not installed here).
 */
class MementoImportCliTest {
    private static final String SERVER = TestPostgres.SERVER;

    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, Map.of("ENGRAM_HOME", dir.resolve("store").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    @Test
    void importsAnExportFileWithKoreanContentOnceAndOnlyOnce() throws Exception {
        Path file = dir.resolve("backup.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"id\":\"frag_a1\",\"content\":\"Redis NOAUTH 에러는 REDIS_PASSWORD 누락 때문이다\",\"topic\":\"레디스\",\"type\":\"error\","
                        + "\"keywords\":[\"redis\",\"비밀번호\"],\"importance\":0.9,\"created_at\":\"2026-10-02T08:00:00.000Z\"}",
                "{\"id\":\"frag_a2\",\"content\":\"배포 전에 마이그레이션을 먼저 실행한다\",\"topic\":\"deploy\",\"type\":\"procedure\","
                        + "\"is_anchor\":true}",
                ""));
        CliRunner.Run dry = cli().run("import", "--from", "memento", "--dry-run", file.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.err().contains("would import 2 fragments"), dry.err());
        assertEquals("", cli().run("export").out().strip(), "a dry run writes nothing");

        CliRunner.Run run = cli().run("import", "--from", "memento", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("imported 2 fragments (2 in 'default'), 0 links, 0 versions, 1 anchors"), run.err());
        CliRunner.Run found = cli().run("recall", "마이그레이션을");
        assertTrue(found.out().contains("배포 전에 마이그레이션을 먼저 실행한다"), found.out() + found.err());
        String exported = cli().run("export").out();
        assertEquals(2, exported.lines().count(), exported);
        assertTrue(exported.contains("\"key\":\"frag_a1\""), exported);

        CliRunner.Run again = cli().run("import", "--from", "memento", file.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(exported.lines().count(), cli().run("export").out().lines().count(), "a second import adds nothing");

        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"id\":\"x\",\"content\":\"ok\",\"topic\":\"t\"}\nnot json\n");
        CliRunner.Run refused = cli().run("import", "--from", "memento", bad.toString());
        assertEquals(ErrorReporter.USER_ERROR, refused.exitCode());
        assertTrue(refused.err().contains("line 2") && refused.err().contains("nothing was imported"), refused.err());
        CliRunner.Run both = cli().run("import", "--from", "memento", "--jdbc", "postgresql://u@h/db", file.toString());
        assertTrue(both.err().contains("either FILE") && both.err().contains("not both"), both.err());
        assertTrue(cli().run("import", "--jdbc", "postgresql://u@h/db").err().contains("--from memento"));
    }

    @Test
    void caseFieldsComeAcrossAndRoundTripThroughEngramsOwnExport() throws Exception {
        Path file = dir.resolve("cases.jsonl");
        // the fields memento-mcp export writes (case_id, goal, outcome, phase, resolution_status, assertion_status), and the
        // database's affect and context_summary
        Files.writeString(file, "{\"id\":\"frag_c1\",\"content\":\"배포가 JDK 누락으로 실패한다\",\"topic\":\"빌드\",\"type\":\"error\","
                + "\"keywords\":[\"jdk\"],\"case_id\":\"배포-장애-12\",\"goal\":\"배포를 복구한다\",\"outcome\":\"temurin-17 설치 후 통과\","
                + "\"phase\":\"점검\",\"resolution_status\":\"resolved\",\"assertion_status\":\"verified\",\"affect\":\"frustration\","
                + "\"context_summary\":\"금요일 배포 중\"}\n");
        CliRunner.Run run = cli().run("import", "--from", "memento", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        String exported = cli().run("export").out().strip();
        assertTrue(exported.contains("\"notes\":{\"goal\":\"배포를 복구한다\",\"outcome\":\"temurin-17 설치 후 통과\","
                + "\"context_summary\":\"금요일 배포 중\"}"), exported);
        assertTrue(exported.contains(":\"배포-장애-12\"") && exported.contains(":\"점검\"") && exported.contains(":\"빌드\""), exported);
        assertTrue(exported.contains("\"resolution:resolved\"") && exported.contains("\"assertion:verified\"")
                && exported.contains("\"affect:frustration\""), exported);

        Path lines = Files.writeString(dir.resolve("engram.jsonl"), exported + "\n");
        CliRunner other = new CliRunner(dir, Map.of("ENGRAM_HOME", dir.resolve("other").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
        CliRunner.Run moved = other.run("import", lines.toString());
        assertEquals(0, moved.exitCode(), moved.err());
        assertEquals(exported, other.run("export").out().strip(), "Engram's export of it imports losslessly");

        Path bad = Files.writeString(dir.resolve("bad-case.jsonl"), "{\"id\":\"ok\",\"content\":\"새 파편\",\"topic\":\"t\"}\n"
                + "{\"id\":\"frag_b\",\"content\":\"x\",\"topic\":\"t\",\"affect\":\"angry\"}\n");
        CliRunner.Run refused = other.run("import", "--from", "memento", bad.toString());
        assertEquals(ErrorReporter.USER_ERROR, refused.exitCode());
        assertTrue(refused.err().contains(bad + ": fragment frag_b: affect 'angry' is not an affect; send one of neutral,")
                && refused.err().contains("nothing was imported"), refused.err());
        assertEquals(exported, other.run("export").out().strip(), "nothing was written");
    }

    @Test
    void importsAMementoDatabaseWithLinksAndVersions() throws Exception {
        Assumptions.assumeTrue(TestPostgres.reachable(), "PostgreSQL not reachable at " + SERVER + "; set ENGRAM_TEST_POSTGRES or start it");
        String schema = "memento_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
            // Memento's tables as its schema file and migrations define them, the vector column left out
            st.execute("CREATE TABLE " + schema + ".fragments (id TEXT PRIMARY KEY, content TEXT NOT NULL, topic TEXT NOT NULL,"
                    + " keywords TEXT[] NOT NULL DEFAULT '{}', type TEXT NOT NULL, importance REAL NOT NULL DEFAULT 0.5,"
                    + " content_hash TEXT NOT NULL, source TEXT, linked_to TEXT[] DEFAULT '{}', agent_id TEXT NOT NULL DEFAULT 'default',"
                    + " access_count INTEGER DEFAULT 0, accessed_at TIMESTAMPTZ, last_decay_at TIMESTAMPTZ, created_at TIMESTAMPTZ DEFAULT NOW(),"
                    + " ttl_tier TEXT DEFAULT 'warm', estimated_tokens INTEGER DEFAULT 0, utility_score REAL DEFAULT 1.0,"
                    + " verified_at TIMESTAMPTZ DEFAULT NOW(), is_anchor BOOLEAN DEFAULT FALSE, valid_from TIMESTAMPTZ,"
                    + " valid_to TIMESTAMPTZ, superseded_by TEXT, workspace TEXT, idempotency_key TEXT,"
                    // v3's case columns as migrations 017, 025 and 034 add them
                    + " context_summary TEXT, case_id VARCHAR(255) DEFAULT NULL, goal TEXT DEFAULT NULL, outcome TEXT DEFAULT NULL,"
                    + " phase VARCHAR(50) DEFAULT NULL, resolution_status TEXT DEFAULT NULL CHECK (resolution_status IS NULL OR"
                    + " resolution_status IN ('open', 'resolved', 'abandoned')), assertion_status TEXT DEFAULT 'observed'"
                    + " CHECK (assertion_status IN ('observed', 'inferred', 'verified', 'rejected')), affect TEXT CHECK (affect IN"
                    + " ('neutral', 'frustration', 'confidence', 'surprise', 'doubt', 'satisfaction')))");
            st.execute("CREATE TABLE " + schema + ".fragment_links (id BIGSERIAL PRIMARY KEY, from_id TEXT NOT NULL REFERENCES "
                    + schema + ".fragments(id) ON DELETE CASCADE, to_id TEXT NOT NULL REFERENCES " + schema + ".fragments(id)"
                    + " ON DELETE CASCADE, relation_type TEXT DEFAULT 'related', created_at TIMESTAMPTZ DEFAULT NOW(), UNIQUE(from_id, to_id))");
            st.execute("CREATE TABLE " + schema + ".fragment_versions (id BIGSERIAL PRIMARY KEY, fragment_id TEXT NOT NULL REFERENCES "
                    + schema + ".fragments(id) ON DELETE CASCADE, content TEXT NOT NULL, topic TEXT, keywords TEXT[], type TEXT,"
                    + " importance REAL, amended_at TIMESTAMPTZ DEFAULT NOW(), amended_by TEXT)");
            st.execute("INSERT INTO " + schema + ".fragments (id, content, topic, keywords, type, importance, content_hash, access_count,"
                    + " created_at, workspace) VALUES"
                    + " ('e1', '배포가 JDK 누락으로 실패한다', '빌드', '{deploy,jdk}', 'error', 0.9, 'h1', 5, '2026-11-01T00:00:00Z', 'shop-api'),"
                    + " ('p1', 'CI 이미지에 temurin-17 을 설치한다', '빌드', '{temurin}', 'procedure', 0.7, 'h2', 0, '2026-11-02T00:00:00Z', 'shop-api'),"
                    + " ('f1', 'The API answers in JSON', 'api', '{}', 'fact', 0.5, 'h3', 0, '2026-11-03T00:00:00Z', NULL)");
            st.execute("UPDATE " + schema + ".fragments SET case_id = '배포-장애', goal = 'CI 를 다시 초록으로', outcome = '해결',"
                    + " phase = '점검', resolution_status = 'resolved', affect = 'doubt', context_summary = '금요일 배포 중' WHERE id = 'e1'");
            // Memento's scheduler faded p1 last on the 20th: fading goes on from there, not again from its creation
            st.execute("UPDATE " + schema + ".fragments SET last_decay_at = '2026-11-20T06:00:00Z' WHERE id = 'p1'");
            st.execute("INSERT INTO " + schema + ".fragment_links (from_id, to_id, relation_type) VALUES ('e1', 'p1', 'resolved_by')");
            st.execute("INSERT INTO " + schema + ".fragment_versions (fragment_id, content, amended_at) VALUES"
                    + " ('p1', 'CI 이미지에 JDK 를 설치한다', '2026-11-02T12:00:00Z')");
        }
        try {
            String url = TestPostgres.withSchema(schema);
            CliRunner.Run run = cli().run("import", "--from", "memento", "--jdbc", url);
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.err().contains("imported 3 fragments (1 in 'default', 2 in 'shop-api'), 1 links, 1 versions"), run.err());
            assertFalse(run.err().contains("Exception"), run.err());
            String shop = cli().run("export", "--zone", "shop-api").out();
            assertEquals(2, shop.lines().count(), shop);
            assertTrue(shop.contains("resolved_by") && shop.contains("CI 이미지에 JDK 를 설치한다"), shop);
            String p1 = shop.lines().filter(l -> l.contains("temurin-17")).findFirst().orElseThrow();
            assertTrue(p1.contains("\"last_decay_at\":\"2026-11-20T06:00:00Z\""), p1);
            String e1 = shop.lines().filter(l -> l.contains("배포가 JDK 누락으로 실패한다")).findFirst().orElseThrow();
            assertTrue(e1.contains("\"notes\":{\"goal\":\"CI 를 다시 초록으로\",\"outcome\":\"해결\",\"context_summary\":\"금요일 배포 중\"}"), e1);
            assertTrue(e1.contains(":\"배포-장애\"") && e1.contains(":\"점검\"") && e1.contains("\"resolution:resolved\"")
                    && e1.contains("\"affect:doubt\"") && !e1.contains("assertion:"), e1);

            CliRunner.Run missing = cli().run("import", "--from", "memento", "--jdbc", TestPostgres.withSchema("no_such_schema"));
            assertEquals(ErrorReporter.USER_ERROR, missing.exitCode());
            assertTrue(missing.err().contains("has no table no_such_schema.fragments"), missing.err());
        } finally {
            try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }
}
