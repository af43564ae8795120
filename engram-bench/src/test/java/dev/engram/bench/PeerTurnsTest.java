package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which calls {@link PeerBench#inTurns} makes and records, with and without a per-set time cap (durations are given, not measured). */
class PeerTurnsTest {
    private static final long SECOND = 1_000_000_000L;

    /** A fake server whose every call "takes" {@code nanos}; it lists the calls made and the calls recorded. */
    private record Fake(long nanos, List<Integer> made, List<Integer> recorded) {
        Fake(long nanos) {
            this(nanos, new ArrayList<>(), new ArrayList<>());
        }
    }

    private static void run(List<Fake> servers, int calls, int warmup, int block, long cap) throws Exception {
        var s = new PeerBench.Settings(List.of(1), List.of(PeerBench.Corpus.CURRENT), 1, calls - warmup, warmup, block, 1,
                Path.of("."), List.of(PeerBench.QueryShape.PHRASE), cap);
        PeerBench.inTurns(servers, calls, s, (f, i) -> {
            f.made().add(i);
            return new PeerBench.Done(f.nanos(), () -> f.recorded().add(i));
        });
    }

    @Test
    void withoutACapEveryCallIsMadeAndTheWarmUpIsNotRecorded() throws Exception {
        Fake a = new Fake(SECOND);
        Fake b = new Fake(1);
        run(List.of(a, b), 12, 4, 5, 0);
        assertEquals(12, a.made().size());
        assertEquals(List.of(4, 5, 6, 7, 8, 9, 10, 11), a.recorded());
        assertEquals(a.recorded(), b.recorded());
    }

    @Test
    void aSlowServerStopsAtTheCapWhileTheFastOneGoesOn() throws Exception {
        Fake slow = new Fake(10 * SECOND);
        Fake fast = new Fake(1_000_000);
        run(List.of(slow, fast), 20, 5, 4, 30 * SECOND);
        // call 0 took over a tenth of the cap: the warm-up ends; calls 1-3 are timed, call 3 crosses the cap
        assertEquals(List.of(0, 1, 2, 3), slow.made());
        assertEquals(List.of(1, 2, 3), slow.recorded());
        assertEquals(20, fast.made().size());
        assertEquals(15, fast.recorded().size());
        assertEquals(5, fast.recorded().get(0));
    }

    @Test
    void oneCallLongerThanTheCapIsStillMeasured() throws Exception {
        Fake glacial = new Fake(200 * SECOND);
        run(List.of(glacial), 10, 3, 25, 60 * SECOND);
        assertEquals(List.of(0), glacial.made());
        assertEquals(List.of(0), glacial.recorded());
    }
}
