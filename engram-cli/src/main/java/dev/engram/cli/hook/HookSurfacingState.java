package dev.engram.cli.hook;

import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.surfacing.CircuitBreaker;
import dev.engram.proxy.surfacing.SurfacingGate;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the surfacing gates remember between hook calls, each of which is a new process: the rate
 * limit's slots of the last minute, the recent queries of the cooldown, and the search's circuit
 * breaker, in {@value #FILE} in the store directory (the dedup window needs no file: surfaced memories
 * are recorded in the proxy's stats database). Calls that overlap take turns on a lock file; one that
 * cannot get it within {@link #LOCK_WAIT_MS} ms surfaces nothing rather than wait. A missing or damaged
 * file is a fresh start.
 */
final class HookSurfacingState {
    static final String FILE = "hook-surfacing-state.json";
    static final long LOCK_WAIT_MS = 2000;

    private HookSurfacingState() {
    }

    /** {@code body} run while holding the lock; empty when another hook call held it too long. */
    static <T> Optional<T> locked(Path storeDir, Supplier<T> body) {
        Path lockFile = storeDir.resolve(FILE + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long deadline = System.nanoTime() + LOCK_WAIT_MS * 1_000_000;
            FileLock lock;
            while ((lock = ch.tryLock()) == null) {
                if (System.nanoTime() > deadline) return Optional.empty();
                Thread.sleep(10);
            }
            try (FileLock held = lock) {
                return Optional.ofNullable(body.get());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot lock " + lockFile + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static void load(Path storeDir, SurfacingGate gate, CircuitBreaker breaker, JsonText json) {
        Path file = storeDir.resolve(FILE);
        if (!Files.isRegularFile(file)) return;
        try {
            Map<String, Object> root = json.readObject(Files.readString(file, StandardCharsets.UTF_8));
            List<Long> slots = new ArrayList<>();
            if (root.get("slots") instanceof List<?> l) for (Object o : l) if (o instanceof Number n) slots.add(n.longValue());
            List<SurfacingGate.RecentQuery> recent = new ArrayList<>();
            if (root.get("recent") instanceof List<?> l) {
                for (Object o : l) {
                    if (o instanceof Map<?, ?> m && m.get("tokens") instanceof List<?> t && m.get("at") instanceof Number at) {
                        recent.add(new SurfacingGate.RecentQuery(t.stream().map(String::valueOf).toList(), at.longValue()));
                    }
                }
            }
            gate.restore(new SurfacingGate.Snapshot(slots, recent));
            if (root.get("breaker") instanceof Map<?, ?> b) {
                int failures = b.get("failures") instanceof Number n ? n.intValue() : 0;
                Long opened = b.get("opened_at") instanceof Number n ? n.longValue() : null;
                breaker.restore(new CircuitBreaker.Snapshot(failures, opened));
            }
        } catch (IOException | RuntimeException e) {
            // damaged or half-written by a killed process: start fresh, the next save repairs it
        }
    }

    static void save(Path storeDir, SurfacingGate gate, CircuitBreaker breaker, JsonText json) {
        SurfacingGate.Snapshot g = gate.snapshot();
        CircuitBreaker.Snapshot b = breaker.snapshot();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("slots", g.slotsMillis());
        List<Map<String, Object>> recent = new ArrayList<>();
        for (SurfacingGate.RecentQuery q : g.recent()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tokens", q.tokens());
            m.put("at", q.atMillis());
            recent.add(m);
        }
        root.put("recent", recent);
        Map<String, Object> br = new LinkedHashMap<>();
        br.put("failures", b.failures());
        br.put("opened_at", b.openedAtMillis());
        root.put("breaker", br);
        Path file = storeDir.resolve(FILE);
        Path tmp = storeDir.resolve(FILE + ".tmp");
        try {
            Files.writeString(tmp, json.write(root), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot save " + file + ": " + e.getMessage(), e);
        }
    }
}
