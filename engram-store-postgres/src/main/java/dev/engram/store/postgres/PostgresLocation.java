package dev.engram.store.postgres;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a PostgreSQL store lives: {@code postgresql://[user[:password]@]host[:port]/database[?schema=name&...]}
 * (the libpq URL form; {@code postgres://} and {@code jdbc:postgresql://} are accepted too). Other query
 * parameters are passed to the JDBC driver (sslmode, ...). The schema defaults to {@code engram}; one
 * database can hold several stores in several schemas.
 */
public record PostgresLocation(String jdbcUrl, String user, String password, String schema) {
    public static final String DEFAULT_SCHEMA = "engram";
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    // lowercase only: PostgreSQL folds unquoted names (search_path, LISTEN) to lowercase, so a
    // mixed-case schema would be one name in CREATE SCHEMA and another in the pool's search_path
    public PostgresLocation {
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("schema '" + schema + "' is not a plain PostgreSQL name:"
                    + " use lowercase letters, digits and _ (at most 63, not starting with a digit)");
        }
    }

    /** Whether {@code text} names a PostgreSQL store rather than a directory. */
    public static boolean isUrl(String text) {
        return text != null && (text.startsWith("postgresql://") || text.startsWith("postgres://")
                || text.startsWith("jdbc:postgresql://"));
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code url} and what to send */
    public static PostgresLocation parse(String url) {
        if (!isUrl(url)) {
            throw new IllegalArgumentException("'" + url + "' is not a PostgreSQL URL; send postgresql://user@host:5432/database");
        }
        String plain = url.startsWith("jdbc:") ? url.substring(5) : url;
        URI uri;
        try {
            uri = new URI(plain);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the PostgreSQL URL is malformed (" + e.getReason()
                    + "); send postgresql://user@host:5432/database");
        }
        if (uri.getHost() == null) throw new IllegalArgumentException("the PostgreSQL URL names no host; send postgresql://user@host:5432/database");
        String database = uri.getPath() == null || uri.getPath().length() <= 1 ? null : uri.getPath().substring(1);
        if (database == null) throw new IllegalArgumentException("the PostgreSQL URL names no database; send postgresql://user@host:5432/database");
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            if (parts.length == 2) password = decode(parts[1]);
        }
        String schema = DEFAULT_SCHEMA;
        List<String> passed = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                if (pair.isEmpty()) continue;
                String[] kv = pair.split("=", 2);
                String key = decode(kv[0]);
                String value = kv.length == 2 ? decode(kv[1]) : "";
                switch (key) {
                    case "schema", "currentSchema" -> schema = value;
                    case "user" -> user = value;
                    case "password" -> password = value;
                    default -> passed.add(pair);
                }
            }
        }
        String jdbc = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + "/" + database
                + (passed.isEmpty() ? "" : "?" + String.join("&", passed));
        return new PostgresLocation(jdbc, user, password, schema);
    }

    public PostgresLocation withSchema(String other) {
        return new PostgresLocation(jdbcUrl, user, password, other);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** For logs and messages: never the password. */
    @Override
    public String toString() {
        return jdbcUrl + " schema " + schema + (user == null ? "" : " as " + user);
    }
}
