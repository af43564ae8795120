package dev.engram.proxy.pipeline;

import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.Surfacing;
import dev.engram.proxy.surfacing.SurfacingSwitch;
import java.util.Optional;

/** SURFACE: appends relevant memories, gated by {@link Surfacer}; sized by the original result. */
public final class SurfaceStage implements PipelineStage {
    /** The block's fixed lines (header, warning, id, rating hint) on top of the memories' budget. */
    private static final int OVERHEAD = 400;
    private final Surfacer surfacer;
    private final SurfacingSwitch switches;

    public SurfaceStage(Surfacer surfacer) {
        this(surfacer, SurfacingSwitch.alwaysOn());
    }

    public SurfaceStage(Surfacer surfacer, SurfacingSwitch switches) {
        this.surfacer = surfacer;
        this.switches = switches;
    }

    @Override
    public String name() {
        return "surface";
    }

    @Override
    public PipelineText apply(PipelineText in, ProxiedCall call) {
        String off = switches.offReason(call.upstream());
        if (off != null) {
            surfacer.countSkip(off); // counted like the other gates, so surfacing_stats shows the switch at work
            return in;
        }
        Optional<Surfacing> s = surfacer.surface(call.server(), call.tool(), call.arguments(), in.raw().length(), call.contextQuery());
        return s.map(x -> in.withMemories(x.block(), x.id())).orElse(in);
    }

    @Override
    public int maxOutputChars(PipelineText in, ProxiedCall call) {
        return in.text().length() + surfacer.maxInjectionChars() + OVERHEAD;
    }
}
