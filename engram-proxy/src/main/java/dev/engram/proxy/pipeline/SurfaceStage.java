package dev.engram.proxy.pipeline;

import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.surfacing.Surfacing;
import java.util.Optional;

/** SURFACE: appends relevant memories, gated by {@link Surfacer}; sized by the original result. */
public final class SurfaceStage implements PipelineStage {
    /** The block's fixed lines (header, warning, id, rating hint) on top of the memories' budget. */
    private static final int OVERHEAD = 400;
    private final Surfacer surfacer;

    public SurfaceStage(Surfacer surfacer) {
        this.surfacer = surfacer;
    }

    @Override
    public String name() {
        return "surface";
    }

    @Override
    public PipelineText apply(PipelineText in, ProxiedCall call) {
        Optional<Surfacing> s = surfacer.surface(call.server(), call.tool(), call.arguments(), in.raw().length());
        return s.map(x -> in.surfaced(in.text() + x.block(), x.id())).orElse(in);
    }

    @Override
    public int maxOutputChars(PipelineText in, ProxiedCall call) {
        return in.text().length() + surfacer.maxInjectionChars() + OVERHEAD;
    }
}
