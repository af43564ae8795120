package dev.engram.cli.hook;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The tail of a Claude Code transcript (JSON lines, each with a {@code message} of role user or
 * assistant whose content is a string or a list of blocks), from the file's last {@value #TAIL_BYTES} bytes.
 * Unreadable files and lines are skipped: the hooks carry on with less context.
 */
public final class Transcript {
    record Message(String role, String text) {
    }

    /**
     * How much of a transcript's end is read: far more than the last few hundred lines the hooks use (a Claude Code line
     * is a few KB, a tool result up to ~100 KB), and a transcript of hours of work is never held whole in memory.
     */
    static final int TAIL_BYTES = 4 * 1024 * 1024;

    private Transcript() {
    }

    /**
     * The user and assistant messages of the last {@code lines} lines. Text blocks are kept up to
     * {@code textChars}; with {@code withTools}, tool calls and results are summarised too.
     */
    static List<Message> tail(String path, int lines, int textChars, boolean withTools, Function<String, Map<String, Object>> json,
                              Consumer<String> note) {
        List<String> recent = recentLines(path, lines, note);
        List<Message> out = new ArrayList<>();
        for (String line : recent) {
            Map<String, Object> entry;
            try {
                entry = json.apply(line);
            } catch (RuntimeException e) {
                continue;
            }
            if (!(entry.get("message") instanceof Map<?, ?> msg)) continue;
            Object role = msg.get("role");
            if (!"user".equals(role) && !"assistant".equals(role)) continue;
            List<String> parts = new ArrayList<>();
            if (msg.get("content") instanceof String s && !s.isBlank()) parts.add(cut(s.strip(), textChars));
            if (msg.get("content") instanceof List<?> blocks) {
                for (Object b : blocks) {
                    if (!(b instanceof Map<?, ?> block)) continue;
                    Object type = block.get("type");
                    if ("text".equals(type) && block.get("text") instanceof String t && !t.isBlank()) {
                        parts.add(cut(t.strip(), textChars));
                    } else if (withTools && "tool_use".equals(type)) {
                        parts.add("[tool_use: " + block.get("name") + " " + cut(String.valueOf(block.get("input")), 300) + "]");
                    } else if (withTools && "tool_result".equals(type)) {
                        String r = block.get("content") instanceof String s ? s : String.valueOf(block.get("content"));
                        if (!r.isBlank()) parts.add("[tool_result: " + cut(r.strip(), 300) + "]");
                    }
                }
            }
            if (!parts.isEmpty()) out.add(new Message((String) role, String.join("\n", parts)));
        }
        return out;
    }

    /**
     * The files the agent's own tools read or wrote in the last {@code lines} lines (the {@code file_path},
     * {@code notebook_path} or {@code path} of tool calls), newest last, each once, at most {@code max}.
     */
    public static List<String> touchedFiles(String path, int lines, int max, Function<String, Map<String, Object>> json,
                                            Consumer<String> note) {
        java.util.LinkedHashSet<String> files = new java.util.LinkedHashSet<>();
        for (String line : recentLines(path, lines, note)) {
            Map<String, Object> entry;
            try {
                entry = json.apply(line);
            } catch (RuntimeException e) {
                continue;
            }
            if (!(entry.get("message") instanceof Map<?, ?> msg) || !(msg.get("content") instanceof List<?> blocks)) continue;
            for (Object b : blocks) {
                if (!(b instanceof Map<?, ?> block) || !"tool_use".equals(block.get("type"))
                        || !(block.get("input") instanceof Map<?, ?> input)) continue;
                for (String k : List.of("file_path", "notebook_path", "path")) {
                    if (input.get(k) instanceof String f && !f.isBlank()) {
                        files.remove(f.strip());
                        files.add(f.strip());
                        break;
                    }
                }
            }
        }
        List<String> all = new ArrayList<>(files);
        return all.subList(Math.max(0, all.size() - max), all.size());
    }

    /**
     * The last {@code lines} non-blank lines of the file, read from its last {@link #TAIL_BYTES} bytes only; none when it
     * cannot be read. Only a regular file is read: the event names any path, and {@code /dev/zero} or a pipe never ends.
     */
    static List<String> recentLines(String path, int lines, Consumer<String> note) {
        if (path == null || path.isBlank()) return List.of();
        String text;
        try {
            Path p = Path.of(path);
            if (!Files.isRegularFile(p)) {
                if (Files.exists(p)) note.accept("the transcript " + path + " is not a regular file; going on without it");
                return List.of();
            }
            text = lastBytes(p);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        List<String> all = text.lines().toList();
        List<String> recent = all.stream().filter(l -> !l.isBlank()).toList();
        return recent.subList(Math.max(0, recent.size() - lines), recent.size());
    }

    /** The file's last {@link #TAIL_BYTES} bytes as text, from the first whole line in them. */
    private static String lastBytes(Path p) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(p)) {
            long start = Math.max(0, ch.size() - TAIL_BYTES);
            ch.position(start);
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size() - start, TAIL_BYTES));
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // a file that shrank meanwhile ends the read early
            }
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
            if (start == 0) return text;
            int firstBreak = text.indexOf('\n');
            return firstBreak < 0 ? "" : text.substring(firstBreak + 1); // the line cut at the start is not JSON
        }
    }

    static int words(String s) {
        String t = s.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
