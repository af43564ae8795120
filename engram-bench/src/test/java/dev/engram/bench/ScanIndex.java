package dev.engram.bench;

import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A linear-scan stand-in for the Lucene index, so the smoke test needs no real index. */
final class ScanIndex implements SearchIndex {
    private final MemoryStore store;
    private final Map<String, Memory> docs = new ConcurrentHashMap<>();
    // advanced only by catchUp, which the tests call from one thread
    private long seq;

    ScanIndex(MemoryStore store) {
        this.store = store;
    }

    @Override
    public long catchUp() {
        for (List<Change> page = store.changesSince(seq, 1000); !page.isEmpty(); page = store.changesSince(seq, 1000)) {
            for (Change c : page) {
                store.get(c.memoryId()).ifPresentOrElse(m -> docs.put(m.id(), m), () -> docs.remove(c.memoryId()));
                seq = c.seq();
            }
        }
        return seq;
    }

    @Override
    public List<IndexHit> search(IndexQuery q) {
        String[] words = q.text().toLowerCase(Locale.ROOT).split("\\W+");
        List<IndexHit> hits = new ArrayList<>();
        for (Memory m : docs.values()) {
            if (!q.zones().isEmpty() && !q.zones().contains(m.zone())) continue;
            if (!q.types().isEmpty() && !q.types().contains(m.type())) continue;
            if (!q.statuses().isEmpty() && !q.statuses().contains(m.status())) continue;
            String text = m.content().toLowerCase(Locale.ROOT);
            int score = 0;
            for (String w : words) if (!w.isEmpty() && text.contains(w)) score++;
            if (score > 0) hits.add(new IndexHit(m.id(), score));
        }
        hits.sort(Comparator.comparingDouble(IndexHit::score).reversed());
        return hits.subList(0, Math.min(q.limit(), hits.size()));
    }

    @Override
    public long indexedSeq() {
        return seq;
    }

    @Override
    public void close() {
    }
}
