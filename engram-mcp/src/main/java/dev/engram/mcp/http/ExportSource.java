package dev.engram.mcp.http;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.ExportCodec;
import java.util.function.Consumer;

/** What {@code GET /export} streams: every export line of a zone (null: every zone the caller may read). */
@FunctionalInterface
public interface ExportSource {
    void export(String zone, Consumer<String> line);

    /**
     * The engine's export in the line format of {@code engram export} (zone lines, then memory lines); a guarded engine
     * exports what its caller may read.
     */
    static ExportSource of(Engine engine, ExportCodec codec) {
        return (zone, line) -> {
            engine.zoneRecords(zone).forEach(z -> line.accept(codec.write(z)));
            engine.export(zone, record -> line.accept(codec.write(record)));
        };
    }
}
