package dev.engram.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real child JVMs ({@link ChildWriterMain}) sharing one store directory: concurrent writers, and a
 * writer killed with SIGKILL in the middle of a stream of writes.
 */
class MultiProcessTest {
    @TempDir
    Path tmp;
    private Path dir;

    @BeforeEach
    void storeDirectory() {
        dir = tmp.resolve("store");
    }

    /** A running child and the stdout lines it has printed so far. */
    private record Child(Process process, List<String> lines, CountDownLatch finished, Path stderr) {
        List<String> acked() {
            return lines.stream().filter(l -> l.startsWith("ack ")).map(l -> l.substring(4)).toList();
        }

        List<String> misses() {
            return lines.stream().filter(l -> l.startsWith("miss ")).toList();
        }

        String stderrText() throws IOException {
            return Files.readString(stderr);
        }
    }

    private Child spawn(int count, String prefix) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stderr = tmp.resolve("child-" + prefix + ".stderr");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ChildWriterMain.class.getName(), dir.toString(), Integer.toString(count), prefix)
                .redirectError(stderr.toFile()).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        CountDownLatch finished = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (IOException e) {
                lines.add("read-error " + e);
            } finally {
                finished.countDown();
            }
        }, "child-" + prefix + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return new Child(p, lines, finished, stderr);
    }

    private static void awaitExit(Child c) throws Exception {
        if (!c.process().waitFor(45, TimeUnit.SECONDS)) {
            c.process().destroyForcibly();
            fail("child did not finish in 45 s; stderr:\n" + c.stderrText());
        }
        c.finished().await(5, TimeUnit.SECONDS);
        assertEquals(0, c.process().exitValue(), "child failed; stderr:\n" + c.stderrText());
    }

    private static void assertFindable(EmbeddedStore store, String id, String word) {
        List<IndexHit> hits = store.index().search(IndexQuery.text(word, "procs", 5));
        assertEquals(List.of(id), hits.stream().map(IndexHit::id).toList(), "search for " + word);
    }

    @Test
    @Timeout(60)
    void concurrentWritersInSeveralProcessesLoseNothingAndSeeTheirWrites() throws Exception {
        int perChild = 25;
        List<String> prefixes = List.of("a", "b", "c");
        List<Child> children = new ArrayList<>();
        for (String prefix : prefixes) children.add(spawn(perChild, prefix));
        for (Child c : children) awaitExit(c);

        Set<String> acked = new HashSet<>();
        for (Child c : children) {
            assertTrue(c.lines().contains("done"), "child finished its loop: " + c.lines());
            assertEquals(List.of(), c.misses(), "a child's own write was not findable after catchUp");
            assertEquals(perChild, c.acked().size());
            acked.addAll(c.acked());
        }
        assertEquals(prefixes.size() * perChild, acked.size(), "acked ids are distinct");

        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            assertEquals(acked.size(), store.store().count(), "exactly the acknowledged writes, once each");
            for (String prefix : prefixes) {
                for (int i = 0; i < perChild; i++) {
                    String id = ChildWriterMain.id(prefix, i);
                    Memory m = store.store().get(id).orElseThrow(() -> new AssertionError("lost " + id));
                    assertTrue(m.content().contains(ChildWriterMain.word(prefix, i)));
                    assertFindable(store, id, ChildWriterMain.word(prefix, i));
                }
            }
            assertEquals(acked.size(), store.store().headSeq(), "one change per insert, no gaps");
            IndexCheck check = store.check();
            assertTrue(check.consistent(), check.toString());
            assertEquals(acked.size(), check.indexedCount());
        }
    }

    @Test
    @Timeout(60)
    void aWriterKilledMidStreamLosesNoAcknowledgedWrite() throws Exception {
        Child victim = spawn(100_000, "k");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (victim.acked().size() < 40 && victim.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(victim.process().isAlive(), "child died early; stderr:\n" + victim.stderrText());
        assertTrue(victim.acked().size() >= 40, "child too slow; stderr:\n" + victim.stderrText());
        victim.process().destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no Lucene commit on close
        victim.process().waitFor(10, TimeUnit.SECONDS);
        victim.finished().await(5, TimeUnit.SECONDS);
        List<String> acked = victim.acked();
        assertTrue(!victim.lines().contains("done"));

        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            for (int i = 0; i < acked.size(); i++) {
                String id = ChildWriterMain.id("k", i);
                assertEquals(id, acked.get(i), "acks arrive in write order");
                assertTrue(store.store().get(id).isPresent(), "acknowledged write lost: " + id);
                assertFindable(store, id, ChildWriterMain.word("k", i));
            }
            // the write in flight at the kill may have committed without its ack; nothing beyond it may exist
            long count = store.store().count();
            assertTrue(count == acked.size() || count == acked.size() + 1, "count " + count + ", acked " + acked.size());
            if (count > acked.size()) assertTrue(store.store().get(ChildWriterMain.id("k", acked.size())).isPresent());
            IndexCheck check = store.check();
            assertTrue(check.consistent(), check.toString());
            assertEquals(count, check.indexedCount());
        }
    }

    @Test
    @Timeout(60)
    void survivorsTakeOverTheIndexFromAKilledWriter() throws Exception {
        Child victim = spawn(100_000, "v");
        Child first = spawn(20, "s");
        Child second = spawn(20, "t");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (victim.acked().size() < 15 && victim.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(victim.acked().size() >= 15, "victim too slow; stderr:\n" + victim.stderrText());
        victim.process().destroyForcibly(); // it may hold Lucene's write lock: the OS must release it
        victim.process().waitFor(10, TimeUnit.SECONDS);
        victim.finished().await(5, TimeUnit.SECONDS);
        awaitExit(first);
        awaitExit(second);
        assertEquals(List.of(), first.misses(), "survivor s could not find its own write");
        assertEquals(List.of(), second.misses(), "survivor t could not find its own write");

        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            List<String> acked = victim.acked();
            for (int i = 0; i < acked.size(); i++) assertFindable(store, acked.get(i), ChildWriterMain.word("v", i));
            for (int i = 0; i < 20; i++) {
                assertFindable(store, ChildWriterMain.id("s", i), ChildWriterMain.word("s", i));
                assertFindable(store, ChildWriterMain.id("t", i), ChildWriterMain.word("t", i));
            }
            long count = store.store().count();
            assertTrue(count == acked.size() + 40 || count == acked.size() + 41, "count " + count);
            IndexCheck check = store.check();
            assertTrue(check.consistent(), check.toString());
        }
    }
}
