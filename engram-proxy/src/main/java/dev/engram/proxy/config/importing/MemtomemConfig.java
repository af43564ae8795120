package dev.engram.proxy.config.importing;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.StoreException;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ResultBudget;
import dev.engram.proxy.config.ToolGlob;
import dev.engram.proxy.config.ToolOverride;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * memtomem-stm's {@code stm_proxy.json}: {@code upstream_servers} (transport, command/args/env or
 * url/headers, prefix, compression, max_result_chars or max_result_tokens, cache_ttl_seconds,
 * tool_overrides) onto Engram upstreams. The global {@code default_compression} and
 * {@code cache.default_ttl_seconds} fill servers that leave those out, as they do in STM. Every
 * other setting is named in a note: most are process-wide here (environment variables) or have
 * no counterpart.
 */
public final class MemtomemConfig {
    private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
    };
    /** STM's estimate for a token budget; a max_result_tokens becomes this many characters per token. */
    static final int CHARS_PER_TOKEN = 4;
    private static final Set<String> SERVER_KEYS = Set.of("transport", "command", "args", "env", "url", "headers", "prefix",
            "compression", "max_result_chars", "max_result_tokens", "cache_ttl_seconds", "tool_overrides", "surfacing_enabled", "exclude_tools");
    private static final Set<String> TOOL_KEYS = Set.of("compression", "max_result_chars", "cache_ttl_seconds", "hidden",
            "description_override");
    private static final Set<String> GLOBAL_KEYS = Set.of("upstream_servers", "default_compression", "cache", "enabled",
            "advertise_context_query");
    /** Global settings that Engram reads from the environment instead of a file. */
    private static final Map<String, String> AS_ENV = Map.of(
            "min_result_retention", "ENGRAM_PROXY_MIN_RESULT_RETENTION",
            "max_description_chars", "ENGRAM_PROXY_MAX_DESCRIPTION_CHARS");

    private final McpJsonMapper mapper;

    public MemtomemConfig(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    public Found read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new InvalidArgumentException("memtomem config", file + " does not exist; give the file: engram proxy import --from memtomem FILE");
        }
        Map<String, Object> root;
        try {
            root = mapper.readValue(Files.readString(file), MAP);
        } catch (IOException e) {
            throw new StoreException("read " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new InvalidArgumentException("memtomem config", file + " is not a JSON object (" + AgentConfigs.firstLine(e) + ")");
        }
        List<String> notes = new ArrayList<>();
        CompressionMode defaultCompression = null;
        if (root.get("default_compression") instanceof String dc) {
            defaultCompression = compression(dc, "default_compression", notes);
        }
        Integer defaultTtl = null;
        if (root.get("cache") instanceof Map<?, ?> cache) {
            if (cache.get("default_ttl_seconds") instanceof Number n) defaultTtl = ttl(n);
            if (Boolean.FALSE.equals(cache.get("enabled"))) defaultTtl = 0;
            List<String> other = ServerEntries.unknownKeys(cache, Set.of("default_ttl_seconds", "enabled"));
            if (!other.isEmpty()) notes.add("cache." + String.join(", cache.", other) + ": not carried over (Engram keeps its cache in <store>/proxy-cache.db)");
        }
        Boolean contextQuery = null;
        if (root.get("advertise_context_query") instanceof Boolean b) {
            contextQuery = b;
        } else if (root.get("advertise_context_query") != null) {
            notes.add("advertise_context_query: not true or false; not carried over");
        }
        for (String key : ServerEntries.unknownKeys(root, GLOBAL_KEYS)) {
            if (key.equals("recover_upstream_description") && Boolean.TRUE.equals(root.get(key))) {
                // an opt-in to hand text an override was written to withhold back to the model: the operator's own edit
                notes.add(key + ": not carried over; set \"recover_upstream_description\": true in proxy.json yourself if you"
                        + " want stm_proxy_describe_tool to return the text a description_override replaced");
                continue;
            }
            String env = AS_ENV.get(key);
            notes.add(key + (env != null ? ": set " + env + "=" + root.get(key) + " where the proxy runs (a process-wide setting here)"
                    : ": not carried over (no counterpart in Engram's proxy.json)"));
        }
        List<ImportCandidate> candidates = new ArrayList<>();
        Object servers = root.get("upstream_servers");
        if (servers != null && !(servers instanceof Map<?, ?>)) {
            throw new InvalidArgumentException("memtomem config", file + ": upstream_servers must be an object of name: server");
        }
        String source = file.getFileName().toString();
        if (servers instanceof Map<?, ?> byName) {
            for (Map.Entry<?, ?> e : byName.entrySet()) {
                String raw = String.valueOf(e.getKey());
                if (!(e.getValue() instanceof Map<?, ?> entry)) {
                    notes.add(raw + ": skipped: its entry is not an object");
                    continue;
                }
                List<String> entryNotes = new ArrayList<>();
                String name = ImportNames.name(raw);
                if (!name.equals(raw)) entryNotes.add("renamed from '" + raw + "' (names are A-Z a-z 0-9 _ . -)");
                try {
                    candidates.add(new ImportCandidate(server(name, entry, defaultCompression, defaultTtl, entryNotes), source, false,
                            entryNotes));
                } catch (ServerEntries.Skip | InvalidArgumentException ex) {
                    notes.add(raw + ": skipped: " + ex.getMessage());
                }
            }
        }
        return new Found(candidates, List.of(file.toString()), notes, contextQuery);
    }

    private UpstreamConfig server(String name, Map<?, ?> m, CompressionMode defaultCompression, Integer defaultTtl,
                                  List<String> notes) {
        UpstreamTransport transport = ServerEntries.transport(m.get("transport") instanceof String t ? t : null, m, "headers", notes);
        String wanted = m.get("prefix") instanceof String p && !p.isBlank() ? p : name;
        String prefix = ImportNames.prefix(wanted, Set.of());
        if (!prefix.equals(wanted)) notes.add("prefix '" + wanted + "' became '" + prefix + "' (lower case, no '__', ≤ 32 chars)");
        CompressionMode compression = m.get("compression") instanceof String c ? compression(c, "compression", notes) : defaultCompression;
        int maxChars = UpstreamConfig.DEFAULT_MAX_RESULT_CHARS;
        if (m.get("max_result_chars") instanceof Number n) {
            maxChars = budget(whole(n), "max_result_chars", notes);
        } else if (m.get("max_result_tokens") instanceof Number n) {
            long tokens = whole(n);
            // saturating: 2^30 tokens times 4 must not wrap round to a tiny (or negative) budget
            long chars = tokens > Long.MAX_VALUE / CHARS_PER_TOKEN ? Long.MAX_VALUE
                    : tokens < Long.MIN_VALUE / CHARS_PER_TOKEN ? Long.MIN_VALUE : tokens * CHARS_PER_TOKEN;
            maxChars = budget(chars, "max_result_tokens", notes);
            notes.add("max_result_tokens " + n + " became max_result_chars " + maxChars + " (" + CHARS_PER_TOKEN + " chars a token)");
        }
        int ttl = m.get("cache_ttl_seconds") instanceof Number n ? ttl(n) : defaultTtl != null ? defaultTtl : UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS;
        ttl = Math.max(0, Math.min(ttl, 30 * 86_400));
        Map<String, ToolOverride> tools = new LinkedHashMap<>();
        if (m.get("tool_overrides") instanceof Map<?, ?> overrides) {
            overrides.forEach((tool, v) -> {
                if (!(v instanceof Map<?, ?> kv)) {
                    notes.add("tool_overrides." + tool + ": not an object; not carried over");
                    return;
                }
                ToolOverride o = ToolOverride.NONE;
                for (Map.Entry<?, ?> e : kv.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    if (!TOOL_KEYS.contains(key)) continue;
                    if (key.equals("compression")) {
                        CompressionMode cm = compression(String.valueOf(e.getValue()), "tool_overrides." + tool + ".compression", notes);
                        if (cm != null) o = o.with(key, cm.id());
                    } else if (key.equals("max_result_chars") && e.getValue() instanceof Number n) {
                        o = o.with(key, String.valueOf(budget(whole(n), "tool_overrides." + tool + ".max_result_chars", notes)));
                    } else if (key.equals("description_override")) {
                        if (e.getValue() == null) continue; // STM's default: the upstream's own description
                        if (!(e.getValue() instanceof String text) || text.isBlank()
                                || text.length() > ToolOverride.MAX_DESCRIPTION_OVERRIDE_CHARS) {
                            notes.add("tool_overrides." + tool + ".description_override: not a usable text; not carried over");
                            continue;
                        }
                        o = o.with(key, text);
                    } else if (key.equals("hidden")) {
                        if (!(e.getValue() instanceof Boolean hidden)) {
                            notes.add("tool_overrides." + tool + ".hidden: not true or false; not carried over");
                            continue;
                        }
                        o = o.with(key, hidden.toString());
                    } else {
                        o = o.with(key, String.valueOf(e.getValue()));
                    }
                }
                List<String> unknown = ServerEntries.unknownKeys(kv, TOOL_KEYS);
                if (!unknown.isEmpty()) notes.add("tool_overrides." + tool + ": not carried over: " + String.join(", ", unknown));
                if (!o.equals(ToolOverride.NONE)) tools.put(String.valueOf(tool), o);
            });
        }
        List<String> exclude = new ArrayList<>();
        if (m.get("exclude_tools") instanceof List<?> patterns) {
            for (Object p : patterns) {
                try {
                    if (!(p instanceof String glob)) throw new InvalidArgumentException("exclude_tools", "holds a non-string");
                    ToolGlob.validate("exclude_tools", glob);
                    exclude.add(glob);
                } catch (InvalidArgumentException ex) {
                    notes.add("exclude_tools entry " + p + ": not a usable pattern; not carried over");
                }
            }
        } else if (m.get("exclude_tools") != null) {
            notes.add("exclude_tools: not an array of patterns; not carried over");
        }
        List<String> unknown = ServerEntries.unknownKeys(m, SERVER_KEYS);
        if (!unknown.isEmpty()) notes.add("not carried over (no counterpart): " + String.join(", ", unknown));
        return new UpstreamConfig(name, prefix, transport, compression, maxChars, ttl, tools, !Boolean.FALSE.equals(m.get("surfacing_enabled")),
                exclude);
    }

    /** STM's strategy names onto Engram's (the same ids); one Engram lacks becomes auto, noted. */
    private static CompressionMode compression(String value, String field, List<String> notes) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (CompressionMode mode : CompressionMode.values()) if (mode.id().equals(v)) return mode;
        notes.add(field + " '" + value + "' has no counterpart here; auto is used");
        return CompressionMode.AUTO;
    }

    /**
     * A JSON number as a long, saturating: intValue() wraps (4294975296 became 8000), and a number
     * past long's range arrives as a BigInteger whose longValue() wraps too.
     */
    static long whole(Number n) {
        if (n instanceof java.math.BigInteger || n instanceof java.math.BigDecimal) {
            java.math.BigDecimal d = new java.math.BigDecimal(n.toString());
            if (d.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) return Long.MAX_VALUE;
            if (d.compareTo(java.math.BigDecimal.valueOf(Long.MIN_VALUE)) < 0) return Long.MIN_VALUE;
            return d.longValue();
        }
        if (n instanceof Double || n instanceof Float) return (long) n.doubleValue(); // the cast saturates
        return n.longValue();
    }

    /** A TTL clamped to what proxy.json accepts (0..30 days), never wrapped. */
    private static int ttl(Number n) {
        return (int) Math.max(0, Math.min(whole(n), 30L * 86_400));
    }

    private static int budget(long chars, String field, List<String> notes) {
        int clamped = (int) Math.max(ResultBudget.MIN_CHARS, Math.min(chars, ResultBudget.MAX_CHARS));
        if (clamped != chars) notes.add(field + " " + chars + " is outside " + ResultBudget.MIN_CHARS + ".." + ResultBudget.MAX_CHARS + "; " + clamped + " is used");
        return clamped;
    }
}
