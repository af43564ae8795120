package dev.engram.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed corpus: real upstream responses captured once into {@code proxy-corpus/} on the class
 * path by {@code e2e/capture-proxy-corpus.mjs} (server-filesystem reading markdown, JSON, an ANSI
 * git log and the end-to-end fixtures; its directory_tree; server-everything's text tools), listed
 * with their source in {@code corpus.tsv}. Checked in, so the numbers do not move when the
 * repository's own docs change. Deterministic: no randomness.
 */
final class BenchCorpus {
    private static final String DIR = "/proxy-corpus/";

    /** One response, where it came from, and the lines a question would be about (at 10%, 50% and 90% of the text). */
    record Doc(String name, String source, String text, List<String> needles) {
    }

    private BenchCorpus() {
    }

    static List<Doc> load() {
        List<Doc> docs = new ArrayList<>();
        for (String row : read("corpus.tsv").split("\n")) {
            if (row.isBlank()) continue;
            String[] cols = row.split("\t", 2);
            docs.add(doc(cols[0], cols[1], read(cols[0])));
        }
        return docs;
    }

    static Doc doc(String name, String source, String text) {
        List<String> needles = new ArrayList<>();
        for (double at : new double[] {0.1, 0.5, 0.9}) {
            int pos = (int) (text.length() * at);
            int start = text.lastIndexOf('\n', pos) + 1;
            int end = text.indexOf('\n', start);
            String line = text.substring(start, end < 0 ? text.length() : end).strip();
            if (line.length() > 60) line = line.substring(0, 60);
            if (!line.isEmpty() && !needles.contains(line)) needles.add(line);
        }
        return new Doc(name, source, text, needles);
    }

    private static String read(String name) {
        try (InputStream in = BenchCorpus.class.getResourceAsStream(DIR + name)) {
            if (in == null) throw new IllegalStateException("missing corpus file " + DIR + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
