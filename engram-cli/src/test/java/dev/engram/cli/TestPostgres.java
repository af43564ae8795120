package dev.engram.cli;

import dev.engram.store.postgres.PostgresLocation;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** The PostgreSQL server the CLI tests use ({@code ENGRAM_TEST_POSTGRES}, else the local one), and a connection to it. */
final class TestPostgres {
    static final String SERVER = System.getenv().getOrDefault("ENGRAM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test");

    private TestPostgres() {
    }

    static boolean reachable() {
        try (Connection c = connect()) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    static Connection connect() throws SQLException {
        PostgresLocation l = PostgresLocation.parse(SERVER);
        Properties p = new Properties();
        if (l.user() != null) p.setProperty("user", l.user());
        if (l.password() != null) p.setProperty("password", l.password());
        p.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(l.jdbcUrl(), p);
    }

    /** {@link #SERVER} with {@code ?schema=} (or {@code &schema=}) set. */
    static String withSchema(String schema) {
        return SERVER + (SERVER.contains("?") ? "&" : "?") + "schema=" + schema;
    }
}
