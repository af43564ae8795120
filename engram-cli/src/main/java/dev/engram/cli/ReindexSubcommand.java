package dev.engram.cli;

import dev.engram.embed.LazyEmbedder;
import dev.engram.error.EngramUserException;
import dev.engram.spi.Embedder;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "reindex", mixinStandardHelpOptions = true, description = "Embed every memory that has no vector of the current model"
        + " (after a model change, that is all of them), with a progress line.")
final class ReindexSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--wait", description = "Seconds to wait for the model to load (default 120)")
    int waitSeconds = 120;

    @Override
    public Integer call() {
        EngramConfig config = root.config();
        try (Main.OpenEngine opened = root.main().openSemanticEngine(config)) {
            Embedder embedder = opened.embedder();
            if (embedder == null) {
                throw new EngramUserException("no embedder is configured (ENGRAM_EMBEDDER=none); nothing to reindex");
            }
            if (embedder instanceof LazyEmbedder lazy && !lazy.awaitReady(Duration.ofSeconds(waitSeconds))) {
                throw new EngramUserException("the embedding model " + embedder.modelId() + " did not load within "
                        + waitSeconds + " s" + lazy.failure().map(t -> ": " + t.getMessage()).orElse("")
                        + "; check ENGRAM_EMBEDDER and its settings");
            }
            long started = System.nanoTime();
            int done = 0;
            for (int n = opened.engine().embedMissing(EmbeddingBackfillLoop.BATCH); n > 0;
                 n = opened.engine().embedMissing(EmbeddingBackfillLoop.BATCH)) {
                done += n;
                double seconds = (System.nanoTime() - started) / 1e9;
                root.main().err().printf("\rreindex: %d memories embedded with %s (%.0f/s)", done, embedder.modelId(),
                        done / Math.max(seconds, 1e-3));
            }
            root.main().err().println();
            root.main().printer(config).print("reindex: " + done + " memories embedded with " + embedder.modelId()
                    + "; every memory now has a vector of this model",
                    java.util.Map.of("embedded", done, "model", embedder.modelId()));
        }
        return 0;
    }
}
