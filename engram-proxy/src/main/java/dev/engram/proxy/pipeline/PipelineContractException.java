package dev.engram.proxy.pipeline;

/** A stage broke what {@link PipelineStage} promises: our bug, reported with the stage's name. */
public final class PipelineContractException extends IllegalStateException {
    public PipelineContractException(String stage, String problem) {
        super("pipeline stage '" + stage + "' broke its contract: " + problem);
    }
}
