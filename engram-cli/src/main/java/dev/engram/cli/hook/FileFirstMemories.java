package dev.engram.cli.hook;

import dev.engram.error.EngramUserException;
import dev.engram.proxy.surfacing.EngineMemorySource;
import dev.engram.proxy.surfacing.MemoryHit;
import dev.engram.proxy.surfacing.MemorySource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The memories for a native tool call: first those scoped to the file it touched (their file or path
 * scope matches it), then the best matches of the query from its path and command anywhere.
 */
final class FileFirstMemories implements MemorySource {
    private final EngineMemorySource engine;
    private final String file;

    FileFirstMemories(EngineMemorySource engine, String file) {
        this.engine = engine;
        this.file = file;
    }

    @Override
    public List<MemoryHit> search(String query, int limit) {
        List<MemoryHit> out = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        if (file != null) {
            try {
                for (MemoryHit h : engine.search(query, limit, glob(file))) if (ids.add(h.id())) out.add(h);
            } catch (EngramUserException e) {
                // a path the store will not take as a scope (too long, odd characters): the query alone then
            }
        }
        if (out.size() >= limit) return out.subList(0, limit);
        for (MemoryHit h : engine.search(query, limit)) {
            if (out.size() >= limit) break;
            if (ids.add(h.id())) out.add(h);
        }
        return out.size() > limit ? out.subList(0, limit) : out;
    }

    /** The path as a glob that matches only itself: glob characters escaped. */
    static String glob(String path) {
        StringBuilder sb = new StringBuilder();
        for (char c : path.toCharArray()) {
            if ("*?[]{}\\".indexOf(c) >= 0) sb.append('\\');
            sb.append(c);
        }
        return sb.toString();
    }
}
