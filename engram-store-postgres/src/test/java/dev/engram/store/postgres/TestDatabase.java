package dev.engram.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL the tests run against: {@code ENGRAM_TEST_POSTGRES} (a postgresql:// URL), else the
 * one .ci/run starts at 127.0.0.1:5432 (user postgres, database test). Every test gets schemas of its
 * own, named after this run, and {@link #dropAll} removes them; a test is skipped, with the reason,
 * only when no server answers at all.
 */
final class TestDatabase {
    static final String URL = System.getenv().getOrDefault("ENGRAM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test");
    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private static final List<String> created = new ArrayList<>();
    private static int next;
    private static Boolean reachable;

    private TestDatabase() {
    }

    /** A fresh schema's location; skips the calling test when PostgreSQL is not there. */
    static synchronized PostgresLocation freshSchema() {
        PostgresLocation base = PostgresLocation.parse(URL);
        if (reachable == null) {
            try (Connection c = connect(base)) {
                reachable = true;
            } catch (SQLException e) {
                reachable = false;
                System.err.println("PostgreSQL not reachable at " + base + " (" + e.getMessage()
                        + "): the PostgreSQL store tests are skipped. Start it or set ENGRAM_TEST_POSTGRES.");
            }
        }
        Assumptions.assumeTrue(reachable, "PostgreSQL not reachable at " + base + "; set ENGRAM_TEST_POSTGRES or start it");
        String schema = "engram_test_" + RUN + "_" + (next++);
        created.add(schema);
        return base.withSchema(schema);
    }

    static Connection connect(PostgresLocation l) throws SQLException {
        Properties p = new Properties();
        if (l.user() != null) p.setProperty("user", l.user());
        if (l.password() != null) p.setProperty("password", l.password());
        p.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(l.jdbcUrl(), p);
    }

    static void execute(PostgresLocation l, String sql) throws SQLException {
        try (Connection c = connect(l); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static synchronized void dropAll() {
        if (created.isEmpty()) return;
        PostgresLocation base = PostgresLocation.parse(URL);
        try (Connection c = connect(base); Statement st = c.createStatement()) {
            for (String schema : created) st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            created.clear();
        } catch (SQLException e) {
            System.err.println("could not drop the test schemas " + created + ": " + e.getMessage());
        }
    }
}
