package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressRelayTest {
    @Test
    void routesByTokenWhileTheCallRunsOnly() {
        ProgressRelay relay = new ProgressRelay();
        List<Double> seen = new ArrayList<>();
        try (ProgressRelay.Registration r = relay.register(7, p -> seen.add(p.progress()))) {
            relay.accept(ProgressNotification.builder(7L, 1.0).build()); // a number may come back as another type
            relay.accept(ProgressNotification.builder("other", 2.0).build());
        }
        relay.accept(ProgressNotification.builder(7, 3.0).build());
        assertEquals(List.of(1.0), seen);
    }

    @Test
    void aFailingSinkDoesNotPropagate() {
        ProgressRelay relay = new ProgressRelay();
        try (ProgressRelay.Registration r = relay.register("t", p -> {
            throw new IllegalStateException("session closed");
        })) {
            relay.accept(ProgressNotification.builder("t", 1.0).build());
        }
    }
}
