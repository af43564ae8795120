package dev.engram.proxy.surfacing;

import dev.engram.engine.Engine;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.ResultCost;
import dev.engram.mcp.render.TokenEstimate;
import dev.engram.memory.Memory;
import java.util.List;
import java.util.function.Supplier;

/** Recall over the Engram store. The engine is a supplier: it may still be opening at the first call. */
public final class EngineMemorySource implements MemorySource {
    /**
     * No budget is set here, so the cost only fills the unread {@code tokens}; surfacing prices its own
     * block. It prices the content surfacing shows, not any profile's format: the proxy wears no profile.
     */
    private static final ResultCost UNBUDGETED = new ResultCost() {
        @Override
        public int recalled(RecalledMemory result, RecallMode mode, int rank) {
            return TokenEstimate.of(result.memory().content());
        }

        @Override
        public int briefingLine(Memory memory) {
            return TokenEstimate.of(memory.content());
        }
    };

    private final Supplier<Engine> engine;
    private final String zone;

    public EngineMemorySource(Supplier<Engine> engine, String zone) {
        this.engine = engine;
        this.zone = zone;
    }

    @Override
    public List<MemoryHit> search(String query, int limit) {
        return search(query, limit, null);
    }

    /** As {@link #search(String, int)}, only memories whose file or path scope matches {@code pathGlob} (null: any). */
    public List<MemoryHit> search(String query, int limit, String pathGlob) {
        RecallQuery q = RecallQuery.builder(query).limit(limit).zone(zone).path(pathGlob).build();
        return engine.get().recall(q, UNBUDGETED).results().stream().map(EngineMemorySource::hit).toList();
    }

    private static MemoryHit hit(RecalledMemory r) {
        Memory m = r.memory();
        String label = m.key() != null ? m.key() : m.file() != null ? m.file() : m.type().name().toLowerCase(java.util.Locale.ROOT);
        return new MemoryHit(m.id(), label, m.content(), r.score());
    }
}
