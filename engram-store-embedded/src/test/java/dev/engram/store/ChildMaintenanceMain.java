package dev.engram.store;

import dev.engram.engine.Engine;
import dev.engram.engine.lifecycle.LifecyclePolicy;
import dev.engram.engine.lifecycle.MaintenanceReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A child process for {@link MaintenanceLeaseProcessTest}: {@code <dir> <go-file>}. Opens the store and an
 * engine, waits for the go file (so both children start together), asks for a scheduled cycle
 * ({@code runIfDue}, interval one hour) and prints {@code ran <owner> <changed>} or {@code skipped}.
 */
public final class ChildMaintenanceMain {
    private ChildMaintenanceMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path go = Path.of(args[1]);
        try (EmbeddedStore store = EmbeddedStore.open(dir, Clock.systemUTC())) {
            Engine engine = new Engine(store.store(), store.index(), Clock.systemUTC());
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (!Files.exists(go) && System.nanoTime() < deadline) Thread.sleep(5);
            Optional<MaintenanceReport> r = engine.maintenance().runIfDue(LifecyclePolicy.MEMENTO, Duration.ofHours(1));
            System.out.println(r.map(x -> "ran " + x.owner() + " " + x.changed()).orElse("skipped"));
        }
        System.out.println("done");
    }
}
