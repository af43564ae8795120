package dev.engram.cli.hook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The tail of a Claude Code transcript (JSON lines, each with a {@code message} of role user or
 * assistant whose content is a string or a list of blocks). Unreadable files and lines are skipped:
 * the hooks carry on with less context.
 */
final class Transcript {
    record Message(String role, String text) {
    }

    private Transcript() {
    }

    /**
     * The user and assistant messages of the last {@code lines} lines. Text blocks are kept up to
     * {@code textChars}; with {@code withTools}, tool calls and results are summarised too.
     */
    static List<Message> tail(String path, int lines, int textChars, boolean withTools, Function<String, Map<String, Object>> json) {
        if (path == null || path.isBlank()) return List.of();
        List<String> all;
        try {
            all = Files.readAllLines(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        List<String> recent = all.stream().filter(l -> !l.isBlank()).toList();
        recent = recent.subList(Math.max(0, recent.size() - lines), recent.size());
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

    static int words(String s) {
        String t = s.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
