package dev.engram.cli;

import dev.engram.engine.ImportOutcome;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.profile.memento.MementoData;
import dev.engram.store.postgres.PostgresLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code engram import --from memento FILE} (what {@code memento-mcp export} writes) and
 * {@code engram import --from memento --jdbc URL} (a Memento PostgreSQL database, schema {@code agent_memory}
 * unless the URL says {@code ?schema=}): fragments with their links and versions, see {@link MementoData}.
 */
final class MementoImport {
    static final String SCHEMA = "agent_memory";
    /**
     * Memento's columns that Engram reads, the case columns of v3 included; the vector column is never selected
     * (Engram re-embeds the content). Only those the database has are selected: older schemas lack the case columns.
     */
    private static final List<String> FRAGMENT_COLUMNS = Stream.concat(Stream.of("id", "content", "topic",
            "type", "keywords", "importance", "linked_to", "access_count", "accessed_at", "last_decay_at", "created_at", "ttl_tier", "is_anchor",
            "valid_to", "superseded_by", "workspace", "idempotency_key"), MementoData.caseColumnNames().stream()).toList();

    private MementoImport() {
    }

    static int run(Path file, String jdbc, boolean dryRun, boolean replace, EngramConfig config, Main main) throws IOException {
        if (replace) {
            throw new EngramUserException("import --from memento: --replace does not apply; a fragment the store holds keeps"
                    + " its newer state, the imported one becomes a version");
        }
        if ((file == null) == (jdbc == null)) {
            throw new EngramUserException("import --from memento: send either FILE (memento-mcp export's JSONL) or --jdbc URL"
                    + " (postgresql://user@host:5432/memento), not " + (file == null ? "neither" : "both"));
        }
        String source = file != null ? file.toString() : masked(jdbc);
        MementoData.Rows rows;
        if (file != null) {
            try {
                rows = MementoData.parseExport(Files.readString(file, StandardCharsets.UTF_8), main.json());
            } catch (NoSuchFileException e) {
                throw new EngramUserException("import: no such file " + file);
            } catch (EngramUserException e) {
                throw new EngramUserException(file + " " + e.getMessage() + "; nothing was imported");
            }
        } else {
            rows = readDatabase(jdbc);
        }
        MementoData.Loaded loaded;
        try {
            loaded = MementoData.toRecords(rows, config.defaultZone(), Instant.now());
        } catch (EngramUserException e) {
            throw new EngramUserException(source + ": " + e.getMessage() + "; nothing was imported");
        }
        ImportResult result;
        try (Main.OpenEngine opened = main.openEngine(config)) {
            result = MementoData.importInto(opened.engine(), loaded, dryRun);
        }
        if (dryRun) {
            main.printer(config).print(main.renderers().text().importChanges(result),
                    main.renderers().structured().importResult(result));
        }
        loaded.problems().forEach(p -> main.err().println("note: " + p));
        main.err().println((dryRun ? "would import " : "imported ") + MementoData.describe(loaded) + " from " + source + ": "
                + main.renderers().text().importSummary(result) + "; vectors are not imported: Engram embeds the content itself");
        return result.count(ImportOutcome.CONFLICT) > 0 ? ErrorReporter.USER_ERROR : 0;
    }

    /** Reads the three tables in one read-only transaction, so a live Memento cannot hand over half a change. */
    static MementoData.Rows readDatabase(String url) {
        PostgresLocation location;
        try {
            location = PostgresLocation.parse(url);
        } catch (IllegalArgumentException e) {
            throw new EngramUserException("import --from memento --jdbc: " + e.getMessage());
        }
        boolean schemaGiven = url.contains("schema=") || url.contains("currentSchema=");
        String schema = schemaGiven ? location.schema() : SCHEMA;
        Properties props = new Properties();
        if (location.user() != null) props.setProperty("user", location.user());
        if (location.password() != null) props.setProperty("password", location.password());
        try (Connection c = DriverManager.getConnection(location.jdbcUrl(), props)) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            Set<String> fragmentColumns = columns(c, schema, "fragments");
            if (fragmentColumns.isEmpty()) {
                throw new EngramUserException("import --from memento --jdbc: " + masked(url) + " has no table " + schema
                        + ".fragments; is this a Memento database? (add ?schema=NAME if its schema is not " + SCHEMA + ")");
            }
            List<String> wanted = FRAGMENT_COLUMNS.stream().filter(fragmentColumns::contains).toList();
            for (String needed : List.of("id", "content")) {
                if (!wanted.contains(needed)) {
                    throw new EngramUserException("import --from memento --jdbc: " + schema + ".fragments has no column " + needed);
                }
            }
            List<Map<String, Object>> fragments = select(c, "SELECT " + String.join(", ", wanted) + " FROM " + schema
                    + ".fragments ORDER BY created_at NULLS FIRST, id");
            List<Map<String, Object>> links = columns(c, schema, "fragment_links").isEmpty() ? List.of()
                    : select(c, "SELECT from_id, to_id, relation_type, created_at FROM " + schema + ".fragment_links ORDER BY id");
            List<Map<String, Object>> versions = columns(c, schema, "fragment_versions").isEmpty() ? List.of()
                    : select(c, "SELECT fragment_id, content, amended_at FROM " + schema + ".fragment_versions ORDER BY fragment_id, amended_at, id");
            c.rollback();
            return new MementoData.Rows(fragments, links, versions);
        } catch (SQLException e) {
            throw new EngramUserException("import --from memento --jdbc: cannot read " + masked(url) + ": " + e.getMessage());
        }
    }

    private static Set<String> columns(Connection c, String schema, String table) throws SQLException {
        Set<String> out = new TreeSet<>();
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet rs = meta.getColumns(null, schema, table, null)) {
            while (rs.next()) out.add(rs.getString("COLUMN_NAME"));
        }
        return out;
    }

    private static List<Map<String, Object>> select(Connection c, String sql) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    if (v instanceof Array a) v = List.of((Object[]) a.getArray());
                    row.put(meta.getColumnLabel(i), v);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The URL without its password, for messages. */
    static String masked(String url) {
        return url.replaceAll("(//[^/:@]+):[^@/]*@", "$1:***@").replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
