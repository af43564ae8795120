package dev.engram.bench.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed corpus: real upstream responses of server-filesystem's read_text_file (the text of files
 * in this repository, which it returns unchanged) plus the generated fixtures the end-to-end test
 * serves (a large JSON array, nested JSON, an ANSI log, plain notes). Deterministic: no randomness.
 */
final class BenchCorpus {
    /** One response and the lines a question would be about (at 10%, 50% and 90% of the text). */
    record Doc(String name, String text, List<String> needles) {
    }

    private BenchCorpus() {
    }

    static List<Doc> load(Path repo) {
        List<Doc> docs = new ArrayList<>();
        for (String file : List.of("docs/architecture.md", "README.md", "docs/proxy.md", "e2e/package-lock.json")) {
            Path p = repo.resolve(file);
            if (Files.isRegularFile(p)) docs.add(doc(file, read(p)));
        }
        docs.add(doc("generated/items.json", jsonArray(300)));
        docs.add(doc("generated/nested.json", nested()));
        docs.add(doc("generated/build.log", ansiLog()));
        docs.add(doc("generated/notes.txt", notes()));
        return docs;
    }

    static Doc doc(String name, String text) {
        List<String> needles = new ArrayList<>();
        for (double at : new double[] {0.1, 0.5, 0.9}) {
            int pos = (int) (text.length() * at);
            int start = text.lastIndexOf('\n', pos) + 1;
            int end = text.indexOf('\n', start);
            String line = text.substring(start, end < 0 ? text.length() : end).strip();
            if (line.length() > 60) line = line.substring(0, 60);
            if (!line.isEmpty()) needles.add(line);
        }
        return new Doc(name, text, needles);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String jsonArray(int n) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < n; i++) {
            sb.append("  {\"id\": ").append(i).append(", \"name\": \"item-").append(i)
                    .append("\", \"tags\": [\"alpha\", \"beta\"], \"description\": \"Item number ").append(i)
                    .append(" in the large array fixture\"}").append(i + 1 < n ? ",\n" : "\n");
        }
        return sb.append("]").toString();
    }

    private static String nested() {
        StringBuilder sb = new StringBuilder("{\n");
        String[] groups = {"server", "database", "cache", "queue", "auth", "logging"};
        for (int g = 0; g < groups.length; g++) {
            sb.append("  \"").append(groups[g]).append("\": {\n");
            for (int j = 0; j < 40; j++) {
                sb.append("    \"").append(groups[g]).append("_option_").append(j).append("\": {\"value\": ").append(j)
                        .append(", \"note\": \"setting ").append(j).append(" of ").append(groups[g]).append(" explained at length\"}")
                        .append(j < 39 ? ",\n" : "\n");
            }
            sb.append("  }").append(g < groups.length - 1 ? ",\n" : "\n");
        }
        return sb.append("}").toString();
    }

    private static String ansiLog() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            sb.append("\u001b[32mINFO\u001b[0m  worker heartbeat ok\n");
            if (i % 50 == 0) sb.append("\u001b[31mERROR\u001b[0m request ").append(i).append(" failed: \u001b[1mtimeout\u001b[0m\n");
        }
        return sb.toString();
    }

    private static String notes() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            sb.append("Note ").append(i).append(": plain prose without any headings, written to exceed the budget so that it is ")
                    .append("delivered in chunks which can be read back exactly, one after another.\n\n");
        }
        return sb.toString();
    }
}
