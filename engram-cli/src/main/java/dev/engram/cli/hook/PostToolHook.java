package dev.engram.cli.hook;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.EngineMemorySource;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.Surfacing;
import dev.engram.proxy.surfacing.ThresholdTuner;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code engram hook post-tool}: memories relevant to the file or command a native tool (Read, Edit,
 * Bash, Cursor's shell) just touched, through the proxy's own {@link Surfacer} and its gates (minimum
 * result size, query tokens, write-like tools, rate limit, cooldown, dedup window, circuit breaker,
 * the tuned minimum score), printed in the host's hook output: Claude Code and Codex read
 * {@code {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": …}}}, Cursor
 * {@code {"additional_context": …}}. Nothing is printed when a gate says no.
 */
public final class PostToolHook {
    private final Surfacer surfacer;
    private final JsonText json;

    public PostToolHook(Surfacer surfacer, JsonText json) {
        this.surfacer = surfacer;
        this.json = json;
    }

    /** How a hook's memories are rated: the CLI (the proxy's tool works too where the proxy runs on this store). */
    public static String rating(String id) {
        return "`engram hook feedback " + id + " helpful` (or stm_surfacing_feedback(surfacing_id=\"" + id
                + "\", rating=\"helpful\") where the proxy runs)";
    }

    /**
     * One hook call from start to end: the stateless gates first (nothing is opened for a call they
     * refuse), then, holding the state file's lock, the stats database, the saved gate state, the search
     * over {@code engine} (opened by then: its start-up must not count against the search timeout), and
     * the state saved back. "" when a gate says no.
     */
    public static String surface(Path storeDir, SurfacingSettings settings, Supplier<Engine> engine, String zone,
                                 PostToolEvent e, JsonText json, Clock clock, Supplier<String> ids) {
        return surface(storeDir, settings, engine, zone, e, json, clock, ids, StatsLease.PER_CALL);
    }

    /**
     * How a call gets the proxy's stats database: opened and closed by each call in its own process;
     * kept open by the hook daemon (opening and closing it was a large part of a call). Either way every
     * read and write goes to the database file, shared with every other process on the store.
     */
    public interface StatsLease {
        ProxyStats open(Path storeDir, Clock clock);

        void release(ProxyStats stats);

        StatsLease PER_CALL = new StatsLease() {
            @Override
            public ProxyStats open(Path storeDir, Clock clock) {
                return new ProxyStats(storeDir, clock);
            }

            @Override
            public void release(ProxyStats stats) {
                stats.close();
            }
        };
    }

    /** As above, with the stats database from {@code lease}. */
    public static String surface(Path storeDir, SurfacingSettings settings, Supplier<Engine> engine, String zone,
                                 PostToolEvent e, JsonText json, Clock clock, Supplier<String> ids, StatsLease lease) {
        if (Surfacer.statelessSkip(settings, e.tool(), e.arguments(), e.responseChars()) != null) return "";
        Engine opened = engine.get();
        return HookSurfacingState.locked(storeDir, () -> {
            ProxyStats stats = lease.open(storeDir, clock);
            try (Surfacer surfacer = new Surfacer(settings, new FileFirstMemories(new EngineMemorySource(() -> opened, zone),
                         e.file()), clock, new ThresholdTuner(settings, stats), stats, ids, PostToolHook::rating)) {
                HookSurfacingState.load(storeDir, surfacer.gate(), surfacer.breaker(), json);
                String out = new PostToolHook(surfacer, json).run(e);
                HookSurfacingState.save(storeDir, surfacer.gate(), surfacer.breaker(), json);
                return out;
            } finally {
                lease.release(stats);
            }
        }).orElse("");
    }

    /** The line to print for this event, or "" when the gates say no. */
    public String run(PostToolEvent e) {
        Optional<Surfacing> s = surfacer.surface(e.host().id(), e.tool(), e.arguments(), e.responseChars());
        return s.map(x -> output(e.host(), x.block().strip())).orElse("");
    }

    /** The host's hook output holding {@code context}, cut to the host's limit. */
    String output(PostToolEvent.Host host, String context) {
        String c = context.length() <= PostToolEvent.Host.CONTEXT_LIMIT_CHARS ? context
                : context.substring(0, PostToolEvent.Host.CONTEXT_LIMIT_CHARS);
        Map<String, Object> out = new LinkedHashMap<>();
        if (host == PostToolEvent.Host.CURSOR) {
            out.put("additional_context", c);
        } else {
            Map<String, Object> specific = new LinkedHashMap<>();
            specific.put("hookEventName", "PostToolUse");
            specific.put("additionalContext", c);
            out.put("hookSpecificOutput", specific);
        }
        return json.write(out) + "\n";
    }
}
