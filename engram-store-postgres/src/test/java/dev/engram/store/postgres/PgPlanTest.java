package dev.engram.store.postgres;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.testing.MutableClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The statements every recall runs, planned as PostgreSQL plans them once a prepared statement has run five times: one
 * generic plan for any parameters. A plan that scans every memory costs each call milliseconds of the server's CPU at
 * 10k memories, and no functional test notices (a join in the cache's check did, found by the load benchmark).
 */
class PgPlanTest {
    private final MutableClock clock = MutableClock.at("2026-12-08T01:00:00Z");

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    @Test
    void theCacheCheckAndTheRowReadLookMemoriesUpByKeyWhateverTheirParameters() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l, Duration.ofHours(1))) {
            List<Memory> ms = new ArrayList<>();
            for (int i = 1; i <= 3000; i++) ms.add(minimal(clock, i, "work", "memory number " + i).build());
            store.write(tx -> {
                for (Memory m : ms) tx.insert(m);
                return null;
            });
        }
        try (Connection c = TestDatabase.connect(l); Statement st = c.createStatement()) {
            c.setSchema(l.schema());
            st.execute("ANALYZE");
            st.execute("SET plan_cache_mode = force_generic_plan");
            String check = plan(st, "chk", PgCacheCheck.CHECK, "(2990, 513, 0, 513, 0, 65)");
            assertFalse(check.contains("Seq Scan on memories"), check);
            assertTrue(check.contains("memories_pkey"), "each change's pin is looked up by key:\n" + check);
            String rows = plan(st, "ids", PgReads.BY_IDS, "(ARRAY['a', 'b'])");
            assertFalse(rows.contains("Seq Scan on memories"), rows);
            assertTrue(rows.contains("memories_pkey"), "the rows are read by key:\n" + rows);
        }
    }

    /** The generic plan of {@code sql} (its {@code ?} numbered), executed with {@code args}. */
    private static String plan(Statement st, String name, String sql, String args) throws Exception {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') numbered.append('$').append(++n);
            else numbered.append(ch);
        }
        st.execute("PREPARE " + name + " AS " + numbered);
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = st.executeQuery("EXPLAIN EXECUTE " + name + args)) {
            while (rs.next()) out.append(rs.getString(1)).append('\n');
        }
        return out.toString();
    }
}
