package dev.engram.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.engine.lifecycle.MaintenanceLease;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real processes ({@link ChildMaintenanceMain}) with an engine each on one SQLite store, asking for a
 * scheduled maintenance cycle at the same moment: the lease in the store's marks lets exactly one run it.
 */
class MaintenanceLeaseProcessTest {
    @TempDir
    Path tmp;

    private record Child(Process process, List<String> lines, Path stderr) {
    }

    private Child spawn(Path dir, Path go, String name) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = tmp.resolve(name + ".stderr");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ChildMaintenanceMain.class.getName(), dir.toString(), go.toString()).redirectError(stderr.toFile()).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (Exception e) {
                lines.add("read-error " + e);
            }
        }, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return new Child(p, lines, stderr);
    }

    @Test
    @Timeout(90)
    void ofTwoProcessesAskingAtOnceExactlyOneRunsTheCycle() throws Exception {
        Path dir = tmp.resolve("store");
        Instant old = Instant.now().minus(java.time.Duration.ofDays(40));
        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            store.store().write(tx -> {
                // a procedure written 40 days ago: the cycle fades it, so the one that ran has something to report
                tx.insert(Memory.builder().id("m_aaaaaaaaaa").key("deploy").type(MemoryType.PROCEDURE)
                        .content("Deploy with make release").createdAt(old).updatedAt(old).relevance(1.4).build());
                return null;
            });
        }
        Path go = tmp.resolve("go");
        List<Child> children = List.of(spawn(dir, go, "a"), spawn(dir, go, "b"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (!children.stream().allMatch(c -> c.lines().contains("ready")) && System.nanoTime() < deadline) Thread.sleep(10);
        Files.writeString(go, "go");
        List<String> outcomes = new ArrayList<>();
        for (Child c : children) {
            if (!c.process().waitFor(45, TimeUnit.SECONDS)) {
                c.process().destroyForcibly();
                fail("child did not finish; stderr:\n" + Files.readString(c.stderr()));
            }
            assertEquals(0, c.process().exitValue(), "child failed; stderr:\n" + Files.readString(c.stderr()));
            Thread.sleep(50); // the reader thread drains the last lines
            assertTrue(c.lines().contains("done"), c.lines().toString());
            outcomes.addAll(c.lines().stream().filter(l -> l.startsWith("ran ") || l.equals("skipped")).toList());
        }
        assertEquals(1, outcomes.stream().filter(l -> l.startsWith("ran ")).count(), outcomes.toString());
        assertEquals(1, outcomes.stream().filter(l -> l.equals("skipped")).count(), outcomes.toString());
        String ran = outcomes.stream().filter(l -> l.startsWith("ran ")).findFirst().orElseThrow();
        assertTrue(ran.endsWith(" 1"), "the one that ran faded the procedure: " + ran);
        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            assertTrue(store.store().mark(MaintenanceLease.LAST_RUN).isPresent(), "the cycle's end is recorded for every process");
            assertEquals(0.7 * Math.pow(2, -40 / 30.0), store.store().get("m_aaaaaaaaaa").orElseThrow().relevance() / 2, 0.002,
                    "faded once, not twice");
        }
    }
}
