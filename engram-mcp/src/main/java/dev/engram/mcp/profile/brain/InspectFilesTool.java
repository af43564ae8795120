package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.strings;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.access.Access;
import dev.engram.access.AccessDeniedException;
import dev.engram.access.Right;
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
 * line ranges; with one, the model picks the lines and writes a tentative answer. Paths must lie in
 * the server's working directory (relative paths start there; an absolute path, a '..' or a symbolic
 * link leading out of it is refused), so an agent cannot read the rest of the machine through it. Over HTTP
 * only a caller with every right on every zone may call it: the files belong to no zone.
 * Directory walks are bounded in depth and entries before anything is sorted; binary and very large
 * files are skipped with a reason.
 */
final class InspectFilesTool {
    static final long MAX_FILE_BYTES = 1_000_000;
    static final int MAX_FILES = 200;
    static final int CONTEXT = 2;
    /** How deep a directory is walked, and how many entries a walk visits at most, before sorting. */
    static final int MAX_DEPTH = 12;
    static final int MAX_VISITED = 10_000;
    private final BrainContext c;
    private final Path root;
    private final Path realRoot;

    InspectFilesTool(BrainContext c) {
        this(c, Path.of(""));
    }

    /** Reads only under {@code root} (the server's working directory in production). */
    InspectFilesTool(BrainContext c, Path root) {
        this.c = c;
        this.root = root.toAbsolutePath().normalize();
        Path real;
        try {
            real = this.root.toRealPath();
        } catch (IOException e) {
            real = this.root;
        }
        this.realRoot = real;
    }

    ToolHandler tool() {
        var def = BrainTool.tool("inspect_files", "Inspect files",
                "Agent driven file inspection that uses AI to retrieve relevant content from multiple files. Without a "
                        + "configured model (ENGRAM_LLM_URL) it returns the line ranges that contain a keyword. Over HTTP it needs a token "
                        + "with every right on every zone. Paths must lie "
                        + "inside the server's working directory (relative paths start there).",
                schema(props("file_paths", strings("Paths to the files (or directories) to inspect, inside the server's working directory", List.of("src/deploy.sh")),
                        "information_needed", string("Full description of what information is needed from the files. Be specific.",
                                "where the deploy target is set"),
                        "reason", string("Explain why this information is needed.", "moving to a new cluster"),
                        "include_lines", bool("Whether to include the actual line content in the response (default: false)"),
                        "keywords", strings("Array of specific keywords related to the information needed. REQUIRED and cannot "
                                + "be null or empty.", List.of("deploy", "cluster"))),
                        "file_paths", "information_needed", "include_lines", "keywords"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            // the server's files belong to no zone: over HTTP only a token with every right on every zone reads them
            // (a zone-bound token could otherwise read a tokens file in the working directory, and so every zone)
            if (!Access.local() && !Access.current().everywhere(Right.ADMIN)) throw new AccessDeniedException(Right.ADMIN);
            List<String> paths = args.list("file_paths");
            if (paths == null || paths.isEmpty()) {
                throw new InvalidArgumentException("file_paths", "is required: send the files or directories to read, e.g. [\"src\"]");
            }
            String needed = args.text("information_needed");
            String reason = args.textOr("reason");
            Boolean includeLines = args.boolOr("include_lines");
            if (includeLines == null) throw new InvalidArgumentException("include_lines", "is required: true to get the lines' text, false for ranges only");
            List<String> keywords = SearchTools.keywords(args);
            List<Path> checked = new ArrayList<>();
            for (int i = 0; i < paths.size(); i++) checked.add(inside(i, paths.get(i)));
            List<Map<String, Object>> results = new ArrayList<>();
            for (Path file : files(paths, checked, results)) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("filePath", shown(file));
                try {
                    List<String> lines = read(file);
                    Pick pick = c.model.isPresent() ? modelPick(file, lines, needed, reason, keywords) : grep(lines, keywords);
                    r.put("linesContent", "lines as returned by cat -n " + file);
                    r.put("lines", includeLines ? pick.lines().stream().map(n -> n + "\t" + lines.get(n - 1)).toList() : List.of());
                    r.put("lineRanges", ranges(pick.lines()));
                    r.put("tentativeAnswer", pick.answer());
                } catch (IOException e) {
                    r.put("error", plain(e));
                } catch (RuntimeException e) {
                    r.put("error", e.getCause() instanceof IOException io ? plain(io) : String.valueOf(e.getMessage()));
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

    /**
     * The path, resolved against the working directory, when it lies inside it (also once symbolic
     * links are followed); otherwise the whole call is refused, saying what to send.
     */
    private Path inside(int i, String p) {
        String field = "file_paths[" + i + "]";
        if (p == null || p.isBlank()) throw new InvalidArgumentException(field, "is blank; send a path inside " + root);
        Path given;
        try {
            given = Path.of(p.strip());
        } catch (java.nio.file.InvalidPathException e) {
            throw new InvalidArgumentException(field, dev.engram.memory.MemoryRules.shown(p) + " is not a valid path; send a path"
                    + " relative to the server's working directory " + root + ", e.g. \"src/deploy.sh\"");
        }
        Path resolved = root.resolve(given).normalize();
        String outside = dev.engram.memory.MemoryRules.shown(p) + " is outside the server's working directory " + root
                + "; inspect_files reads only files under it: send a path relative to it (e.g. \"src/deploy.sh\") with no '..'"
                + " leading out of it";
        boolean lexicallyInside = resolved.startsWith(root) || resolved.startsWith(realRoot);
        if (!Files.exists(resolved)) {
            if (!lexicallyInside) throw new InvalidArgumentException(field, outside);
            return resolved; // reported as missing
        }
        Path real;
        try {
            real = resolved.toRealPath();
        } catch (IOException e) {
            throw new InvalidArgumentException(field, dev.engram.memory.MemoryRules.shown(p) + " cannot be read: " + plain(e));
        }
        // the real path decides: a '..' is gone after normalize(), a link is followed here
        if (!real.startsWith(realRoot)) {
            throw new InvalidArgumentException(field, outside + (lexicallyInside ? " (it is a symbolic link to a place outside)" : ""));
        }
        return real.startsWith(root) ? real : root.resolve(realRoot.relativize(real));
    }

    /** The path as shown back: relative to the working directory. */
    private String shown(Path file) {
        Path rel = file.startsWith(root) ? root.relativize(file) : file;
        return rel.toString().isEmpty() ? "." : rel.toString();
    }

    /**
     * The regular files named or found under the named directories, at most {@link #MAX_FILES}; problems
     * reported. A walk stops at {@link #MAX_DEPTH} levels and {@link #MAX_VISITED} entries, and only then
     * are the files found sorted, so a huge tree costs a bounded walk, not a sort of all of it.
     */
    private List<Path> files(List<String> paths, List<Path> checked, List<Map<String, Object>> problems) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < paths.size() && out.size() < MAX_FILES; i++) {
            String p = paths.get(i);
            Path path = checked.get(i);
            if (Files.isDirectory(path)) {
                List<Path> found = new ArrayList<>();
                int[] visited = new int[1];
                boolean[] cut = new boolean[1];
                try (Stream<Path> walk = Files.walk(path, MAX_DEPTH)) {
                    var it = walk.iterator();
                    while (it.hasNext()) {
                        Path f = it.next();
                        if (++visited[0] > MAX_VISITED || found.size() >= MAX_FILES - out.size()) {
                            cut[0] = true;
                            break;
                        }
                        if (f.toString().contains("/.git/") || !Files.isRegularFile(f)) continue;
                        if (!insideReally(f)) continue; // a link leading out of the working directory is not followed
                        found.add(f);
                    }
                } catch (IOException e) {
                    problems.add(problem(p, "cannot list the directory: " + plain(e)));
                } catch (java.io.UncheckedIOException e) {
                    problems.add(problem(p, "cannot list all of the directory: " + plain(e.getCause())));
                }
                found.sort(null);
                out.addAll(found);
                if (cut[0]) {
                    problems.add(problem(p, "the directory holds more than inspect_files reads in one call ("
                            + MAX_FILES + " files, " + MAX_VISITED + " entries, " + MAX_DEPTH + " levels deep); only the first "
                            + found.size() + " files found were read: send a narrower directory or the files themselves"));
                }
            } else if (Files.isRegularFile(path)) {
                out.add(path);
            } else {
                problems.add(problem(p, "no such file or directory (relative paths start at the server's "
                        + "working directory, " + root + ")"));
            }
        }
        return out;
    }

    private boolean insideReally(Path f) {
        try {
            return f.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false;
        }
    }

    /** An I/O failure in words: no java.nio class names. */
    static String plain(IOException e) {
        String file = e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null ? fs.getFile() + ": " : "";
        if (e instanceof java.nio.file.NoSuchFileException) return file + "no such file or directory";
        if (e instanceof java.nio.file.AccessDeniedException) return file + "permission denied";
        if (e instanceof java.nio.file.NotDirectoryException) return file + "not a directory";
        if (e instanceof java.nio.file.FileSystemLoopException) return file + "a symbolic link loops back on itself";
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) return file + fs.getReason();
        String m = e.getMessage();
        return m == null || m.isBlank() || m.contains("java.") ? "the file could not be read" : m;
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

    /** One path's problem, {@code filePath} first as brain-tools prints it ({@code Map.of}'s order changes from run to run). */
    private static Map<String, Object> problem(Object path, String error) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("filePath", path);
        m.put("error", error);
        return m;
    }
}
