package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `load` refuses bad pacing, warm-up and replica values before any server starts, and its table says how it was run. */
class LoadFlagsTest {
    @Test
    void badValuesAreNamed(@TempDir Path dir) throws Exception {
        String jar = Files.createFile(dir.resolve("engram.jar")).toString(); // never started: refused before
        assertEquals("load: --rate must be 0 (back to back) or up to 100000 calls/s, got -1.0",
                BenchCli.refused("load", "--jar", jar, "--rate", "-1"));
        assertEquals("load: --warmup must be >= 0 s", BenchCli.refused("load", "--jar", jar, "--warmup", "-3"));
        assertEquals("load: --replicas 1,2 needs --postgres URL: replicas share a PostgreSQL store",
                BenchCli.refused("load", "--jar", jar, "--replicas", "1,2"));
        assertEquals("load: --replicas must be 1..8 each, got [1, 0]",
                BenchCli.refused("load", "--jar", jar, "--postgres", "postgresql://u@h:5432/db", "--replicas", "1,0"));
        assertEquals("load: --with-embedded puts the embedded store's rows beside PostgreSQL's: give --postgres URL too"
                + " (without it every row is the embedded store's)", BenchCli.refused("load", "--jar", jar, "--with-embedded"));
    }

    @Test
    void theSetupsAreTheEmbeddedStoreThenEachReplicaCount() {
        assertEquals(List.of("embedded"), labels(settings(null, List.of(1), false)));
        assertEquals(List.of("PostgreSQL, 1 replica"), labels(settings("postgresql://u@h:5432/db", List.of(1), false)));
        assertEquals(List.of("embedded", "PostgreSQL, 1 replica", "PostgreSQL, 2 replicas"),
                labels(settings("postgresql://u@h:5432/db", List.of(1, 2), true)));
    }

    @Test
    void eachReplicaIsWarmedAsLongAsALoneServer() {
        Duration perServer = Duration.ofSeconds(120);
        assertEquals(Duration.ofSeconds(120), LoadBench.Setup.EMBEDDED.warmup(perServer));
        assertEquals(Duration.ofSeconds(120), new LoadBench.Setup(true, 1).warmup(perServer));
        assertEquals(Duration.ofSeconds(240), new LoadBench.Setup(true, 2).warmup(perServer));
    }

    @Test
    void fiftyClientsDoNotAllMakeTheSameFirstCallOrWriteTheSameFirstText() {
        // the first draw decides recall or remember (80 / 20); from plain consecutive seeds all fifty agreed
        int remembers = 0;
        java.util.Set<String> firstTexts = new java.util.HashSet<>();
        java.util.Set<Long> seeds = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            long seed = LoadBench.clientSeed(42, 50, i, 0);
            seeds.add(seed);
            LoadBench.ClientTexts texts = LoadBench.ClientTexts.of(seed);
            if (texts.choice().nextDouble() >= 0.8) remembers++;
            firstTexts.add(texts.memories().next().content());
        }
        assertTrue(remembers >= 3 && remembers <= 25, "first calls that are remembers: " + remembers + " of 50");
        assertTrue(firstTexts.size() >= 45, "distinct first texts: " + firstTexts.size() + " of 50");
        // the warm-up (phase 1) writes other texts than the measured row (phase 0)
        for (int i = 0; i < 50; i++) assertTrue(seeds.add(LoadBench.clientSeed(42, 50, i, 1)), "warm-up seed " + i + " repeats a row's");
    }

    private static List<String> labels(LoadBench.Settings s) {
        return s.setups().stream().map(LoadBench.Setup::label).toList();
    }

    @Test
    void theTableNamesThePaceAndTheCpuPerCall() {
        LoadBench.Settings paced = settings(600);
        LoadBench.Row row = new LoadBench.Row(LoadBench.Setup.EMBEDDED, 50, 10.0, 4_000, 1_000, 0, new Latencies(new long[] {1_000_000, 3_000_000}),
                new Latencies(new long[] {5_000_000}), 0, Duration.ofSeconds(10), Duration.ofSeconds(5));
        String table = LoadBench.table(List.of(row), paced);
        assertTrue(table.contains("paced: 600 calls/s offered in all, latency from when each call was due"), table);
        assertTrue(table.contains("after 10 s of warm-up per server"), table);
        // 500 calls/s, 400 recalls/s, ..., 10 s of server CPU over 5,000 calls, 5 s of the clients'
        assertEquals(List.of("embedded", "50", "500", "400", "1.00", "3.00", "100", "5.00", "5.00", "0", "0", "2.00", "1.00"),
                cells(table, 0), table);
        assertTrue(LoadBench.table(List.of(row), settings(0)).contains("back to back (closed loop)"));
        LoadBench.Row unknownCpu = new LoadBench.Row(LoadBench.Setup.EMBEDDED, 50, 10.0, 10, 0, 0, new Latencies(new long[] {1}), null, 0, null, null);
        List<String> unknown = cells(LoadBench.table(List.of(unknownCpu), paced), 0);
        assertEquals(List.of("-", "-"), unknown.subList(unknown.size() - 2, unknown.size()),
                "a platform that does not report CPU time gets a dash, not a zero");
    }

    /** The cells of the table's data row {@code n}. */
    private static List<String> cells(String table, int n) {
        List<String> rows = table.lines().filter(l -> l.startsWith("|")).skip(2).toList();
        String row = rows.get(n);
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::strip).toList();
    }

    private static LoadBench.Settings settings(double rate) {
        return new LoadBench.Settings(List.of(50), Duration.ofSeconds(10), 100, 0.8, 1, Path.of("/tmp"), Path.of("engram.jar"),
                List.of(), "none", null, List.of(1), false, rate, Duration.ofSeconds(10));
    }

    private static LoadBench.Settings settings(String postgres, List<Integer> replicas, boolean withEmbedded) {
        return new LoadBench.Settings(List.of(50), Duration.ofSeconds(10), 100, 0.8, 1, Path.of("/tmp"), Path.of("engram.jar"),
                List.of(), "none", postgres, replicas, withEmbedded, 0, Duration.ofSeconds(10));
    }
}
