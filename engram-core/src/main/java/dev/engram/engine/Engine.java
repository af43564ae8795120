package dev.engram.engine;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The memory engine: one method per operation, each taking a command or query record and returning
 * a result record. Thread-safe; several engines (in several processes) may share one store.
 */
public final class Engine {
    /** Word-set Jaccard at or above which two memories of one zone and type count as near-duplicates. */
    public static final double NEAR_DUPLICATE_JACCARD = 0.7;

    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;

    public Engine(MemoryStore store, SearchIndex index, Clock clock) {
        this.store = store;
        this.index = index;
        this.clock = clock;
    }

    public RememberResult remember(RememberCommand command) { throw new UnsupportedOperationException("not yet"); }

    public RecallResult recall(RecallQuery query) { throw new UnsupportedOperationException("not yet"); }

    public ForgetResult forget(ForgetCommand command) { throw new UnsupportedOperationException("not yet"); }

    public AmendResult amend(AmendCommand command) { throw new UnsupportedOperationException("not yet"); }

    public LinkResult link(LinkCommand command) { throw new UnsupportedOperationException("not yet"); }

    public ExploreResult explore(ExploreQuery query) { throw new UnsupportedOperationException("not yet"); }

    public dev.engram.memory.Memory pin(PinCommand command) { throw new UnsupportedOperationException("not yet"); }

    /** Stats for one zone, or for the whole store when {@code zone} is null. */
    public StatsResult stats(String zone) { throw new UnsupportedOperationException("not yet"); }

    public ContextResult context(ContextQuery query) { throw new UnsupportedOperationException("not yet"); }

    /** Every memory of a zone (all zones when null) with its outgoing edges and versions. */
    public void export(String zone, Consumer<ExportRecord> sink) { throw new UnsupportedOperationException("not yet"); }

    /** Writes a record exactly as exported (ids, times and all); an existing id is overwritten. */
    public void importRecord(ExportRecord record) { throw new UnsupportedOperationException("not yet"); }

    public Set<String> zones() { return store.zones(); }
}
