package dev.engram.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PostgresLocationTest {
    @Test
    void aLibpqUrlBecomesAJdbcUrlWithUserPasswordAndSchema() {
        PostgresLocation l = PostgresLocation.parse("postgresql://engram:s%40cret@db.internal:6432/team?schema=memories&sslmode=require");
        assertEquals("jdbc:postgresql://db.internal:6432/team?sslmode=require", l.jdbcUrl());
        assertEquals("engram", l.user());
        assertEquals("s@cret", l.password());
        assertEquals("memories", l.schema());
        assertFalse(l.toString().contains("s@cret"), "no password in logs: " + l);
    }

    @Test
    void theSchemaDefaultsToEngramAndOtherSpellingsAreAccepted() {
        assertEquals("engram", PostgresLocation.parse("postgres://127.0.0.1/test").schema());
        PostgresLocation jdbc = PostgresLocation.parse("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        assertEquals("jdbc:postgresql://127.0.0.1:5432/test", jdbc.jdbcUrl());
        assertEquals("postgres", jdbc.user());
        assertTrue(PostgresLocation.isUrl("postgresql://h/d"));
        assertFalse(PostgresLocation.isUrl("/var/lib/engram"));
    }

    @Test
    void badUrlsSayWhatIsWrongAndWhatToSend() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://host"))
                .getMessage().contains("names no database"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://h/d?schema=a;drop"))
                .getMessage().contains("not a plain PostgreSQL name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://h/d?schema=Team"))
                .getMessage().contains("lowercase"), "PostgreSQL would fold it in some places and not in others");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("mysql://h/d"))
                .getMessage().contains("postgresql://user@host:5432/database"));
    }
}
