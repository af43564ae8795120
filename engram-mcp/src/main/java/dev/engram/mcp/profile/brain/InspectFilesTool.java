package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.strings;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.error.InvalidArgumentException;
import dev.engram.llm.ChatModels;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * inspect_files, brain-tools' "agentic grep": for each file (directories are walked) the lines that
 * bear on the need. Without a model: the lines containing a keyword, with two lines of context, as
 * line ranges; with one, the model picks the lines and writes a tentative answer. Relative paths are
 * read from the server's working directory; binary and very large files are skipped with a reason.
 */
final class InspectFilesTool {
    static final long MAX_FILE_BYTES = 1_000_000;
    static final int MAX_FILES = 200;
    static final int CONTEXT = 2;
    private final BrainContext c;

    InspectFilesTool(BrainContext c) {
        this.c = c;
    }

    ToolHandler tool() {
        var def = BrainTool.tool("inspect_files", "Inspect files",
                "Agent driven file inspection that uses AI to retrieve relevant content from multiple files. Without a "
                        + "configured model (ENGRAM_LLM_URL) it returns the line ranges that contain a keyword.",
                schema(props("file_paths", strings("Paths to the files (or directories) to inspect", List.of("src/deploy.sh")),
                        "information_needed", string("Full description of what information is needed from the files. Be specific.",
                                "where the deploy target is set"),
                        "reason", string("Explain why this information is needed.", "moving to a new cluster"),
                        "include_lines", bool("Whether to include the actual line content in the response (default: false)"),
                        "keywords", strings("Array of specific keywords related to the information needed. REQUIRED and cannot "
                                + "be null or empty.", List.of("deploy", "cluster"))),
                        "file_paths", "information_needed", "include_lines", "keywords"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            List<String> paths = args.list("file_paths");
            if (paths == null || paths.isEmpty()) {
                throw new InvalidArgumentException("file_paths", "is required: send the files or directories to read, e.g. [\"src\"]");
            }
            String needed = args.text("information_needed");
            String reason = args.textOr("reason");
            Boolean includeLines = args.boolOr("include_lines");
            if (includeLines == null) throw new InvalidArgumentException("include_lines", "is required: true to get the lines' text, false for ranges only");
            List<String> keywords = SearchTools.keywords(args);
            List<Map<String, Object>> results = new ArrayList<>();
            for (Path file : files(paths, results)) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("filePath", file.toString());
                try {
                    List<String> lines = read(file);
                    Pick pick = c.model.isPresent() ? modelPick(file, lines, needed, reason, keywords) : grep(lines, keywords);
                    r.put("linesContent", "lines as returned by cat -n " + file);
                    r.put("lines", includeLines ? pick.lines().stream().map(n -> n + "\t" + lines.get(n - 1)).toList() : List.of());
                    r.put("lineRanges", ranges(pick.lines()));
                    r.put("tentativeAnswer", pick.answer());
                } catch (IOException | RuntimeException e) {
                    r.put("error", e.getMessage());
                }
                results.add(r);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("results", results);
            return out;
        });
    }

    private record Pick(List<Integer> lines, String answer) {
    }

    /** The regular files named or found under the named directories, at most {@link #MAX_FILES}; problems reported. */
    private static List<Path> files(List<String> paths, List<Map<String, Object>> problems) {
        List<Path> out = new ArrayList<>();
        for (String p : paths) {
            Path path = Path.of(p);
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).filter(f -> f.getFileName() != null && !f.toString().contains("/.git/"))
                            .sorted().limit(MAX_FILES - out.size()).forEach(out::add);
                } catch (IOException | RuntimeException e) {
                    problems.add(Map.of("filePath", p, "error", "cannot list the directory: " + e.getMessage()));
                }
            } else if (Files.isRegularFile(path)) {
                out.add(path);
            } else {
                problems.add(Map.of("filePath", p, "error", "no such file or directory (relative paths start at the server's "
                        + "working directory, " + Path.of("").toAbsolutePath() + ")"));
            }
            if (out.size() >= MAX_FILES) break;
        }
        return out;
    }

    private static List<String> read(Path file) throws IOException {
        if (Files.size(file) > MAX_FILE_BYTES) throw new IOException("file is larger than " + MAX_FILE_BYTES + " bytes; skipped");
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) if (b == 0) throw new IOException("binary file; skipped");
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            List<String> lines = List.of(text.split("\r?\n", -1));
            // as cat -n counts them: a final newline ends the last line, it does not start another
            return text.endsWith("\n") ? lines.subList(0, lines.size() - 1) : lines;
        } catch (CharacterCodingException e) {
            throw new IOException("not UTF-8 text; skipped");
        }
    }

    /** Lines containing any keyword (ignoring case), each with {@link #CONTEXT} lines around it. */
    static Pick grep(List<String> lines, List<String> keywords) {
        List<String> lower = keywords.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
        TreeSet<Integer> picked = new TreeSet<>();
        int hits = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).toLowerCase(Locale.ROOT);
            if (lower.stream().anyMatch(l::contains)) {
                hits++;
                for (int j = Math.max(0, i - CONTEXT); j <= Math.min(lines.size() - 1, i + CONTEXT); j++) picked.add(j + 1);
            }
        }
        List<Integer> numbers = new ArrayList<>(picked);
        String answer = hits == 0 ? "No line contains the keywords." : hits + " line(s) contain the keywords, at lines "
                + String.join(", ", ranges(numbers)) + " (no model is configured, so this is not a written answer).";
        return new Pick(numbers, answer);
    }

    private Pick modelPick(Path file, List<String> lines, String needed, String reason, List<String> keywords) {
        StringBuilder numbered = new StringBuilder();
        for (int i = 0; i < lines.size() && numbered.length() < 60_000; i++) numbered.append(i + 1).append('\t').append(lines.get(i)).append('\n');
        try {
            String answer = c.model.get().complete(new ChatPrompt("You read a numbered file and pick the lines that bear on "
                    + "the information needed. Answer with one JSON object: {\"lines\": [line numbers], \"tentativeAnswer\": "
                    + "\"a short answer from those lines\"}.", "File: " + file + "\nInformation needed: " + needed
                    + (reason == null ? "" : "\nReason: " + reason) + "\nKeywords: " + keywords + "\n\n" + numbered, 0.1, 800,
                    Duration.ofSeconds(20)));
            Map<String, Object> parsed = ChatModels.jsonObject(answer, c.json);
            TreeSet<Integer> picked = new TreeSet<>();
            if (parsed.get("lines") instanceof List<?> l) {
                for (Object o : l) if (o instanceof Number n && n.intValue() >= 1 && n.intValue() <= lines.size()) picked.add(n.intValue());
            }
            return new Pick(new ArrayList<>(picked), parsed.get("tentativeAnswer") instanceof String s ? s : "");
        } catch (LlmException e) {
            Pick g = grep(lines, keywords);
            return new Pick(g.lines(), "The model did not answer (" + e.getMessage() + "); " + g.answer());
        }
    }

    /** 3,4,5,9 -> ["3-5", "9"]. */
    static List<String> ranges(List<Integer> numbers) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < numbers.size(); ) {
            int start = numbers.get(i), end = start;
            while (i + 1 < numbers.size() && numbers.get(i + 1) == end + 1) end = numbers.get(++i);
            out.add(start == end ? String.valueOf(start) : start + "-" + end);
            i++;
        }
        return out;
    }
}
