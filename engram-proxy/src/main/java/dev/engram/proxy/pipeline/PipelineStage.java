package dev.engram.proxy.pipeline;

/**
 * One step of CLEAN → COMPRESS → SURFACE (R15). A stage returns a non-null text no longer than
 * {@link #maxOutputChars}; {@link Pipeline} checks both after every stage and names the stage
 * that broke the contract. Stages are stateless or thread-safe: calls run concurrently.
 */
public interface PipelineStage {
    String name();

    PipelineText apply(PipelineText in, ProxiedCall call);

    /** The longest text this stage may return for {@code in}. */
    int maxOutputChars(PipelineText in, ProxiedCall call);
}
