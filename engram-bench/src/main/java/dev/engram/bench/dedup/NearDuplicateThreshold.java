package dev.engram.bench.dedup;

import dev.engram.bench.BenchEmbedder;
import dev.engram.engine.Similarity;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code engram-bench nearduplicates [--embedder M]}: rescaled cosine ({@link Similarity}) of labelled memory pairs under a model — the
 * same fact said twice versus a different fact on the same topic — and the threshold that separates
 * them best (highest F1 for "duplicate"). The engine's {@code NEAR_DUPLICATE_COSINE} comes from here.
 */
public final class NearDuplicateThreshold {
    private NearDuplicateThreshold() {
    }

    record Pair(boolean duplicate, double cosine) {
    }

    public static void run(BenchEmbedder model) throws IOException {
        Embedder embedder = model.load();
        double unrelated = embedder.unrelatedCosine();
        List<Pair> pairs = new ArrayList<>();
        try (InputStream in = NearDuplicateThreshold.class.getResourceAsStream("/near-duplicate-pairs.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t");
                float[] a = embedder.embed(f[1]), b = embedder.embed(f[2]);
                double dot = 0;
                for (int i = 0; i < a.length; i++) dot += a[i] * b[i];
                pairs.add(new Pair(f[0].equals("dup"), Similarity.rescaled(dot, unrelated)));
            }
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Model %s, unrelated cosine %.3f; rescaled cosines:%n%n",
                model.flag(), unrelated) + "| pairs | n | cosine min | median | max |\n|---|---|---|---|---|\n");
        for (boolean dup : new boolean[] {true, false}) {
            double[] c = pairs.stream().filter(p -> p.duplicate() == dup).mapToDouble(Pair::cosine).sorted().toArray();
            md.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f |%n", dup ? "same fact" : "same topic, other fact",
                    c.length, c[0], c[c.length / 2], c[c.length - 1]));
        }
        md.append("\n| threshold | precision | recall | F1 |\n|---|---|---|---|\n");
        double bestF1 = -1, best = 0;
        for (int t = 40; t <= 98; t += 2) {
            double th = t / 100.0;
            long tp = pairs.stream().filter(p -> p.duplicate() && p.cosine() >= th).count();
            long fp = pairs.stream().filter(p -> !p.duplicate() && p.cosine() >= th).count();
            long fn = pairs.stream().filter(p -> p.duplicate() && p.cosine() < th).count();
            double precision = tp + fp == 0 ? 1 : (double) tp / (tp + fp), recall = (double) tp / (tp + fn);
            double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
            md.append(String.format(Locale.ROOT, "| %.2f | %.2f | %.2f | %.2f |%n", th, precision, recall, f1));
            // ties go to the higher threshold: a false "duplicate" costs the agent more than a missed one
            if (f1 >= bestF1) {
                bestF1 = f1;
                best = th;
            }
        }
        md.append(String.format(Locale.ROOT, "%nBest F1 %.2f at cosine %.2f (ties resolved upwards).%n", bestF1, best));
        System.out.print(md);
    }
}
