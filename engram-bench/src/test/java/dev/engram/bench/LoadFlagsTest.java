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

/** `load` refuses bad pacing and warm-up values before any server starts, and its table says how it was run. */
class LoadFlagsTest {
    @Test
    void badValuesAreNamed(@TempDir Path dir) throws Exception {
        String jar = Files.createFile(dir.resolve("engram.jar")).toString(); // never started: refused before
        assertEquals("load: --rate must be 0 (back to back) or up to 100000 calls/s, got -1.0",
                BenchCli.refused("load", "--jar", jar, "--rate", "-1"));
        assertEquals("load: --warmup must be >= 0 s", BenchCli.refused("load", "--jar", jar, "--warmup", "-3"));
    }

    @Test
    void theTableNamesThePaceAndTheCpuPerCall() {
        LoadBench.Settings paced = settings(600);
        LoadBench.Row row = new LoadBench.Row(50, 10.0, 4_000, 1_000, 0, new Latencies(new long[] {1_000_000, 3_000_000}),
                new Latencies(new long[] {5_000_000}), 0, Duration.ofSeconds(10), Duration.ofSeconds(5));
        String table = LoadBench.table(List.of(row), paced);
        assertTrue(table.contains("paced: 600 calls/s offered in all, latency from when each call was due"), table);
        assertTrue(table.contains("after 10 s of warm-up"), table);
        // 500 calls/s, 400 recalls/s, ..., 10 s of server CPU over 5,000 calls, 5 s of the clients'
        assertEquals(List.of("50", "500", "400", "1.00", "3.00", "100", "5.00", "5.00", "0", "0", "2.00", "1.00"),
                cells(table, 0), table);
        assertTrue(LoadBench.table(List.of(row), settings(0)).contains("back to back (closed loop)"));
        LoadBench.Row unknownCpu = new LoadBench.Row(50, 10.0, 10, 0, 0, new Latencies(new long[] {1}), null, 0, null, null);
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
                List.of(), "none", null, 1, rate, Duration.ofSeconds(10));
    }
}
