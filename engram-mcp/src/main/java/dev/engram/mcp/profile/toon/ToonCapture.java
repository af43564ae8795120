package dev.engram.mcp.profile.toon;

import dev.engram.crypto.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * toon-memory's capture log, {@code .toon-memory/memory/observations.toon}: one line per tool call an
 * agent's PostToolUse hook saw ({@code ts|session|agent|branch|tool|hash|file|summary}), newest first,
 * at most {@value #MAX} lines. Written by {@code engram hook capture} (opt-in, secrets redacted) or by
 * toon's own hook; read by memory_captured, memory_promote and memory_merge_sessions. The file is
 * toon's, so both tools can share it; nothing in it enters the memory until promoted.
 */
public final class ToonCapture {
    public static final String FILE = "observations.toon";
    static final int MAX = 500;
    private static final String HEADER = "observations[%d|]{ts|session|agent|branch|tool|hash|file|summary}:";
    private static final Duration DEDUP_WINDOW = Duration.ofMinutes(5);
    private static final Set<String> WRITING = Set.of("edit", "write", "create", "bash", "git", "npm", "multiedit", "notebookedit");
    private static final Set<String> LOOKING = Set.of("read", "grep", "glob", "search", "ls", "list");
    private static final Pattern FAILURE = Pattern.compile("\\b(error|fail|bug|fix|broken|fails|failed|cannot|crash)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BROWSING = Pattern.compile("\\b(viewed|read|opened|inspected|browsed|listed|scanned)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final List<Pattern> SECRETS = List.of(
            Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----"),
            Pattern.compile("sk-[A-Za-z0-9_-]{20,}"),
            Pattern.compile("\\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}"),
            Pattern.compile("AKIA[0-9A-Z]{16}"),
            Pattern.compile("AIza[0-9A-Za-z_-]{35}"),
            Pattern.compile("gh[pousr]_[A-Za-z0-9]{36,}"),
            Pattern.compile("github_pat_[A-Za-z0-9_]{20,}"),
            Pattern.compile("glpat-[A-Za-z0-9_-]{20,}"),
            Pattern.compile("xox[baprs]-[A-Za-z0-9-]{10,}"));
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{6,}");
    /** {@code password=…}, {@code TOKEN: …}, {@code "api_key": "…"}: the name, its quote and separator stay, the value goes. */
    private static final Pattern ASSIGNED = Pattern.compile(
            "(?i)((?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[\"']?\\s*[:=]\\s*[\"']?)[^\\s\"',}]+");
    /** {@code --password VALUE}, {@code --token=VALUE}: a flag that takes a credential. */
    private static final Pattern FLAG = Pattern.compile(
            "(?i)(--?(?:password|passwd|pass|token|secret|api-?key|access-?key)(?:=|\\s+))(?!-)[^\\s\"']+");
    /** {@code curl -u user:pass}, {@code --user user:pass}: the user stays, the password goes. */
    private static final Pattern USER_FLAG = Pattern.compile("((?:^|\\s)(?:-u|--user)\\s*['\"]?[^\\s:'\"]+:)[^\\s'\"]+");
    /** {@code scheme://user:password@host}: the password in a URL. */
    private static final Pattern URL_CREDENTIALS = Pattern.compile("(?i)(\\b[a-z][a-z0-9+.-]*://[^\\s:/@]+:)[^\\s/@]+@");
    /** Words of an argument's name (snake, kebab or camel case) that say it holds a credential. */
    private static final java.util.Set<String> CREDENTIAL_WORDS = java.util.Set.of("password", "passwd", "passphrase", "pwd",
            "secret", "token", "credential", "credentials", "authorization", "auth", "apikey");
    private static final java.util.Set<String> KEY_KINDS = java.util.Set.of("api", "access", "private", "secret", "encryption",
            "signing", "master");
    /**
     * Engram's own tools whose arguments are a secret or the store's key (toon's vault and encryption, with any
     * client prefix such as {@code mcp__engram__}): only their {@code action} is logged.
     */
    private static final Pattern SECRET_TOOL = Pattern.compile("(?i)(^|.*[^a-z0-9])memory_(secret|encrypt|decrypt)$");

    private ToonCapture() {
    }

    /** One captured tool call. */
    public record Observation(String ts, String session, String agent, String branch, String tool, String hash, String file,
                              String summary) {
        public Observation {
            ts = nz(ts);
            session = nz(session);
            agent = nz(agent);
            branch = nz(branch);
            tool = nz(tool);
            hash = nz(hash);
            file = nz(file);
            summary = nz(summary);
        }

        /** When it was captured, or null when the line's timestamp does not parse. */
        public Instant instant() {
            try {
                return Instant.parse(ts);
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        String line() {
            return "  " + String.join("|", Arrays.stream(new String[]{ts, session, agent, branch, tool, hash, file, summary})
                    .map(ToonFormat::escape).toList());
        }
    }

    public static Path file(Path memoryDir) {
        return memoryDir.resolve(FILE);
    }

    /** The log in file order (newest first as written); empty when there is no log. */
    public static List<Observation> read(Path memoryDir) {
        Path f = file(memoryDir);
        if (!Files.isRegularFile(f)) return List.of();
        String text;
        try {
            text = Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new dev.engram.error.EngramUserException("could not read the capture log " + f + ": " + e.getMessage());
        }
        List<Observation> out = new ArrayList<>();
        for (String line : text.replace("\r\n", "\n").split("\n")) {
            if (!line.startsWith("  ") || !line.contains("|")) continue;
            List<String> p = ToonFormat.split(line.strip());
            out.add(new Observation(at(p, 0), at(p, 1), at(p, 2), at(p, 3), at(p, 4), at(p, 5), at(p, 6), at(p, 7)));
        }
        return out;
    }

    /**
     * Adds {@code o} at the top of the log (atomically), unless the same call (hash) was logged in the
     * last five minutes; keeps the newest {@value #MAX}. Returns whether it was added.
     */
    public static synchronized boolean append(Path memoryDir, Observation o, Instant now) throws IOException {
        // hooks of parallel tool calls run as separate processes: toon's lock keeps one from dropping another's line
        Files.createDirectories(memoryDir);
        if (!Files.exists(file(memoryDir))) ignoreInGit(memoryDir);
        try (ToonLock lock = ToonLock.acquire(file(memoryDir))) {
            List<Observation> all = new ArrayList<>(read(memoryDir));
            for (Observation prev : all) {
                Instant t = prev.instant();
                if (!o.hash().isEmpty() && prev.hash().equals(o.hash()) && t != null && Duration.between(t, now).compareTo(DEDUP_WINDOW) < 0) {
                    return false;
                }
            }
            all.add(0, o);
            if (all.size() > MAX) all = all.subList(0, MAX);
            write(memoryDir, all);
            return true;
        }
    }

    /** Empties the log (the file stays, with its header). */
    public static synchronized void clear(Path memoryDir) throws IOException {
        if (!Files.exists(file(memoryDir))) return;
        try (ToonLock lock = ToonLock.acquire(file(memoryDir))) {
            write(memoryDir, List.of());
        }
    }

    /** What the memory folder's .gitignore says when capture writes it (the log, its lock and its temporary files). */
    static final String GITIGNORE = "# Engram's capture log (engram hook capture): this machine's tool calls, not for git.\n"
            + "# data.toon is not listed: toon users may commit it on purpose.\n"
            + ".gitignore\n" + FILE + "\n" + FILE + ".lock\n" + FILE + ".*.tmp\n";

    /**
     * Keeps the capture log out of the project's git ({@code git add -A} committed it, tool calls and all): a
     * .gitignore beside it, written only when the folder has none (one there is the user's or toon's own). It lists
     * itself, as the store's {@code .engram-store/.gitignore} does, so nothing of Engram's shows in git status.
     */
    private static void ignoreInGit(Path memoryDir) {
        try {
            Files.writeString(memoryDir.resolve(".gitignore"), GITIGNORE, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            // there is one already (CREATE_NEW), or the folder refuses it: the log itself is what must be written
        }
    }

    private static void write(Path memoryDir, List<Observation> all) throws IOException {
        Files.createDirectories(memoryDir);
        StringBuilder b = new StringBuilder("version: 1\n").append(String.format(Locale.ROOT, HEADER, all.size())).append('\n');
        for (Observation o : all) b.append(o.line()).append('\n');
        Path f = file(memoryDir);
        Path tmp = f.resolveSibling(FILE + "." + ProcessHandle.current().pid() + ".tmp");
        Files.writeString(tmp, b.toString(), StandardCharsets.UTF_8);
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The observation for one PostToolUse event ({@code tool_name}, {@code tool_input}, {@code session_id}),
     * as toon's hook derives it: the file from file_path/path/filename/notebook_path, the summary from the
     * command, prompt, new text or content (else the input as JSON), secrets redacted, one line of at most
     * 200 characters; the hash names the call (tool and input) for the five-minute de-duplication. Null
     * when the event names no tool.
     */
    public static Observation observe(Map<String, Object> event, String agent, String branch, Instant now,
                                      Function<Object, String> json) {
        String tool = firstText(event, "tool_name", "toolName", "tool");
        if (tool.isBlank()) return null;
        Object input = withoutCredentials(tool, event.containsKey("tool_input") ? event.get("tool_input") : event.getOrDefault("input", Map.of()));
        String file = "";
        String summary;
        if (input instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked") Map<String, Object> in = (Map<String, Object>) m;
            file = firstText(in, "file_path", "path", "filename", "notebook_path");
            String raw = firstText(in, "command", "cmd", "prompt", "new_string", "old_string", "content");
            summary = raw.isEmpty() ? json.apply(in) : raw;
        } else {
            summary = input == null ? "" : String.valueOf(input);
        }
        summary = redact(summary).replaceAll("\\s+", " ").strip();
        if (summary.length() > 200) summary = summary.substring(0, 200);
        String hash = Sha256.hex(tool + "|" + json.apply(input == null ? Map.of() : input), 8);
        String session = firstText(event, "session_id", "sessionId");
        return new Observation(now.toString(), session, agent, branch, tool, hash, redact(file.strip()), summary);
    }

    /**
     * The tool's input with every credential argument's value replaced by {@code <redacted>} (at any depth), and for
     * {@link #SECRET_TOOL}s every argument but {@code action}: the summary and the de-duplication hash are made from
     * this, so neither a secret nor a hash of it reaches the log.
     */
    static Object withoutCredentials(String tool, Object input) {
        boolean secretTool = SECRET_TOOL.matcher(tool).matches();
        if (secretTool && !(input instanceof Map<?, ?>)) return input == null ? null : "<redacted>";
        return scrub(input, secretTool);
    }

    private static Object scrub(Object value, boolean secretTool) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String name = String.valueOf(e.getKey());
                if (secretTool && name.equals("action")) {
                    out.put(name, e.getValue());
                    continue;
                }
                boolean hide = secretTool || credentialName(name);
                out.put(name, hide && e.getValue() != null ? "<redacted>" : scrub(e.getValue(), false));
            }
            return out;
        }
        if (value instanceof List<?> l) return l.stream().map(v -> scrub(v, secretTool)).toList();
        return value;
    }

    /** Whether an argument's name says it holds a credential ({@code password}, {@code apiKey}, {@code access_token}…). */
    static boolean credentialName(String name) {
        String[] words = name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT).split("[^a-z0-9]+");
        for (int i = 0; i < words.length; i++) {
            if (CREDENTIAL_WORDS.contains(words[i])) return true;
            if (words[i].equals("key") && i > 0 && KEY_KINDS.contains(words[i - 1])) return true;
        }
        return false;
    }

    /** The git branch at {@code dir}, "" outside a repository. */
    public static String branch(Path dir) {
        List<String> out = Git.lines(dir, "rev-parse", "--abbrev-ref", "HEAD");
        return out.isEmpty() ? "" : out.get(0).strip();
    }

    /**
     * Whether capture is on: ENGRAM_CAPTURE or TOON_MEMORY_CAPTURE set (not 0/false/off), or toon's
     * {@code config.json} in the memory folder says {@code "capture": true}. Off by default.
     */
    public static boolean enabled(Map<String, String> env, Path memoryDir, Function<String, Map<String, Object>> json) {
        for (String name : List.of("ENGRAM_CAPTURE", "TOON_MEMORY_CAPTURE")) {
            String v = env.get(name);
            if (v != null && !v.isBlank()) return !List.of("0", "false", "off", "no").contains(v.strip().toLowerCase(Locale.ROOT));
        }
        Path config = memoryDir.resolve("config.json");
        if (!Files.isRegularFile(config)) return false;
        try {
            return Boolean.TRUE.equals(json.apply(Files.readString(config, StandardCharsets.UTF_8)).get("capture"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String firstText(Map<String, Object> m, String... names) {
        for (String n : names) {
            Object v = m.get(n);
            if (v instanceof String s && !s.isBlank()) return s;
        }
        return "";
    }

    /** Replaces what looks like a credential (API keys, tokens, private keys, password=…) with {@code <redacted>}. */
    public static String redact(String text) {
        if (text == null) return "";
        String t = text;
        for (Pattern p : SECRETS) t = p.matcher(t).replaceAll("<redacted>");
        t = BEARER.matcher(t).replaceAll(m -> Matcher.quoteReplacement(m.group(1)) + " <redacted>");
        t = URL_CREDENTIALS.matcher(t).replaceAll(m -> Matcher.quoteReplacement(m.group(1)) + "<redacted>@");
        t = USER_FLAG.matcher(t).replaceAll(m -> Matcher.quoteReplacement(m.group(1)) + "<redacted>");
        t = FLAG.matcher(t).replaceAll(m -> Matcher.quoteReplacement(m.group(1)) + "<redacted>");
        t = ASSIGNED.matcher(t).replaceAll(m -> Matcher.quoteReplacement(m.group(1)) + "<redacted>");
        return t;
    }

    /**
     * toon's deterministic confidence that an observation is worth keeping, 0.05..1: 0.5, +0.1 for a
     * summary of 40..300 characters (−0.1 when shorter), +0.15 with a file, +0.1 for a writing tool
     * (−0.15 for a looking one), +0.1 for failure words, −0.1 for browsing words; 0.1 with no summary.
     */
    public static double confidence(Observation o) {
        String summary = o.summary().strip();
        if (summary.isEmpty()) return 0.1;
        double c = 0.5;
        int len = summary.length();
        if (len >= 40 && len <= 300) c += 0.1;
        else if (len < 40) c -= 0.1;
        if (!o.file().isBlank()) c += 0.15;
        String tool = o.tool().toLowerCase(Locale.ROOT);
        if (WRITING.contains(tool)) c += 0.1;
        else if (LOOKING.contains(tool)) c -= 0.15;
        if (FAILURE.matcher(summary).find()) c += 0.1;
        if (BROWSING.matcher(summary).find()) c -= 0.1;
        return Math.max(0.05, Math.min(1, Math.round(c * 100) / 100.0));
    }

    /** toon's key for a promoted observation: the first four words of the summary, kebab-case, at most 40 characters. */
    static String key(Observation o) {
        String[] words = o.summary().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9\\s]", "").strip().split("\\s+");
        String key = String.join("-", Arrays.stream(words).filter(w -> !w.isEmpty()).limit(4).toList());
        if (key.length() > 40) key = key.substring(0, 40);
        key = key.replaceAll("-+$", "");
        return key;
    }

    /** toon's word set for "already known": lower case, '-' and '_' as spaces. */
    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).replaceAll("[-_]", " ").split("\\s+")) if (!w.isBlank()) out.add(w);
        return out;
    }

    private static String at(List<String> p, int i) {
        return i < p.size() ? p.get(i) : "";
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
