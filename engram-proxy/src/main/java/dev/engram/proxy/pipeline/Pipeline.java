package dev.engram.proxy.pipeline;

import java.util.List;

/** Runs the stages in order and enforces each one's contract (the chain of R15). Thread-safe. */
public final class Pipeline {
    private final List<PipelineStage> stages;

    public Pipeline(List<PipelineStage> stages) {
        this.stages = List.copyOf(stages);
    }

    public List<String> stageNames() {
        return stages.stream().map(PipelineStage::name).toList();
    }

    public PipelineText run(ProxiedCall call, String raw) {
        PipelineText current = PipelineText.of(raw);
        for (PipelineStage stage : stages) {
            int max = stage.maxOutputChars(current, call);
            PipelineText next = stage.apply(current, call);
            if (next == null) throw new PipelineContractException(stage.name(), "returned null");
            if (!next.raw().equals(raw)) throw new PipelineContractException(stage.name(), "changed the raw upstream text");
            if (next.text().length() > max) {
                throw new PipelineContractException(stage.name(), "returned " + next.text().length()
                        + " chars, at most " + max + " allowed");
            }
            current = next;
        }
        return current;
    }
}
