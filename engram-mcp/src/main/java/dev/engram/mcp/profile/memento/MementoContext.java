package dev.engram.mcp.profile.memento;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What Memento's tools share: the engine, the workspace (Memento's isolation, Engram's zone), the clock and the fragment mapping. */
final class MementoContext {
    /** Memento isolates by workspace; in Engram that is the zone. */
    static final String ZONE_ARGUMENT = "workspace";

    final ProfileContext profile;
    final Fragments fragments;
    final Clock clock;

    MementoContext(ProfileContext profile, Clock clock) {
        this.profile = profile;
        this.clock = clock;
        this.fragments = new Fragments(profile.engines());
    }

    Engine engine() {
        return profile.engine();
    }

    String zone(ToolArgs args) {
        return profile.zone(args);
    }

    Instant now() {
        return clock.instant();
    }

    List<Memory> live(String zone) {
        Instant now = now();
        return fragments.records(zone).stream().map(ExportRecord::memory).filter(m -> Fragments.live(m, now)).toList();
    }

    /** The fragment of {@code zone} with this id or key, any status: a direct lookup, not a scan of the zone. */
    Optional<ExportRecord> record(String zone, String id) {
        return engine().record(zone, id);
    }

    /** The live fragment {@code id} (field {@code field}), or a NotFound naming the workspace. */
    ExportRecord require(String field, String zone, String id) {
        MemoryRules.requireWellFormed(field, id);
        return record(zone, id.strip()).filter(r -> Fragments.live(r.memory(), now()))
                .orElseThrow(() -> new NotFoundException("no fragment with " + field + " '" + MemoryRules.shown(id).replace("'", "")
                        + "' in workspace '" + zone + "'; recall or context first to get a fragment id"));
    }

    static dev.engram.error.EngramUserException notBuilt(String tool, String what) {
        return new dev.engram.error.EngramUserException(tool + " is not built yet in Engram's memento profile: " + what);
    }
}
