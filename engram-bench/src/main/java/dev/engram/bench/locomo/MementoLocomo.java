package dev.engram.bench.locomo;

import dev.engram.bench.locomo.ConversationRun.EngineAnswer;
import dev.engram.bench.locomo.ConversationRun.Outcome;
import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import dev.engram.bench.locomo.LocomoEvaluation.Split;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * LoCoMo through the memento profile next to the native profile, in one run, on the same conversations and with the
 * same embedder: per conversation the native product path ({@link ProductRun}, plain ingestion, its two recall modes)
 * and the memento one ({@link MementoProductRun}), each on its own fresh store. Returns the markdown section.
 */
public final class MementoLocomo {
    private MementoLocomo() {
    }

    public static String run(Path data, Set<Integer> wanted, Embedder embedder, String embedderName, PrintStream progress)
            throws IOException {
        long start = System.nanoTime();
        Path audit = data.resolveSibling("locomo-audit-errors.json");
        List<LocomoConversation> conversations = LocomoDataset.read(data);
        if (!wanted.isEmpty()) conversations = conversations.stream().filter(c -> wanted.contains(c.index())).toList();
        Map<String, List<String>> corrections = Files.exists(audit) ? LocomoDataset.auditCorrections(audit) : Map.of();
        List<Outcome> outcomes = new ArrayList<>();
        long nativeIngest = 0, mementoIngest = 0, turns = 0;
        for (LocomoConversation c : conversations) {
            long t0 = System.nanoTime();
            Outcome nat = new ProductRun(ProductRun.Via.TOOLS, LocomoConversation.Ingest.PLAIN, embedder, null).run(c);
            Outcome mem = new MementoProductRun(embedder).run(c);
            List<QuestionRun> runs = new ArrayList<>();
            for (int i = 0; i < c.questions().size(); i++) {
                Map<String, EngineAnswer> answers = new LinkedHashMap<>(mem.questions().get(i).engine());
                answers.putAll(nat.questions().get(i).engine());
                runs.add(new QuestionRun(c.questions().get(i), answers, List.of(), 0, List.of(), 0, 0));
            }
            outcomes.add(new Outcome(c, runs, nat.tokensByDiaId(), nat.ingestNanos(), 0));
            nativeIngest += nat.ingestNanos();
            mementoIngest += mem.ingestNanos();
            turns += c.turns().size();
            progress.printf(Locale.ROOT, "[%d/%d] %s (%s): %d turns, %d questions, native and memento; %.1f s%n", outcomes.size(),
                    conversations.size(), c.sampleId(), LocomoEvaluation.DEV.contains(c.index()) ? "dev" : "test", c.turns().size(),
                    c.questions().size(), (System.nanoTime() - t0) / 1e9);
        }
        LocomoEvaluation eval = new LocomoEvaluation(outcomes, corrections);
        LocomoTables tables = new LocomoTables(eval);
        List<RankingMode> modes = new ArrayList<>();
        modes.add(RankingMode.engine(MementoProductRun.MODE));
        for (String name : ProductRun.modeNames(LocomoConversation.Ingest.PLAIN)) modes.add(RankingMode.engine(name));
        StringBuilder md = new StringBuilder();
        md.append("Path: --via tools for both profiles (their tool handlers through ToolAdapter.call, in process; embedder ")
                .append(embedderName).append("). Native: remember {key, type: fact, content}, recall {query, limit: 10}. Memento: ")
                .append("remember {content, topic: speaker, type: fact}, recall {keywords, text} with Memento's defaults.\n\n");
        md.append("#### Official evidence labels, categories 1–4 (Recall_frac@k, NDCG@10 binary)\n\n").append(tables.headline(modes, false));
        md.append("\n#### Audited evidence overlay, categories 1–4\n\n").append(tables.headline(modes, true));
        md.append("\n#### Per category, test split (conversations 2–9), official labels\n\n").append(tables.perCategory(modes, Split.TEST));
        if (outcomes.stream().anyMatch(o -> !LocomoEvaluation.DEV.contains(o.conversation().index()))) {
            md.append("\n#### Paired difference on the test split (bootstrap over questions, 2,000 resamples)\n\n")
                    .append(tables.pairedDifferences(List.<RankingMode[]>of(new RankingMode[] {modes.get(0), modes.get(1)})));
        }
        md.append("\n#### Memento recall: questions whose searchPath had no L3 (semantic) layer\n\n")
                .append(tables.cascadeSkips(MementoProductRun.MODE));
        md.append(String.format(Locale.ROOT, "%nIngest: %d turns; native %.1f s (%.1f ms/turn), memento %.1f s (%.1f ms/turn), "
                        + "embedding included. Whole run: %.1f s.%n", turns, nativeIngest / 1e9, nativeIngest / 1e6 / Math.max(1, turns),
                mementoIngest / 1e9, mementoIngest / 1e6 / Math.max(1, turns), (System.nanoTime() - start) / 1e9));
        return md.toString();
    }
}
