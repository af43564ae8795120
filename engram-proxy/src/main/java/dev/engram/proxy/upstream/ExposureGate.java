package dev.engram.proxy.upstream;

import dev.engram.analysis.TextCut;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides which upstream tools the agent sees. Hidden: every tool of a disconnected server, tools
 * whose name, title, description or schema holds a credential-like string, tools whose exposed name
 * collides with another (both are hidden: which one an agent meant cannot be known) or with one
 * of the proxy's own, and tools whose input schema the SDK would reject at build time.
 */
public final class ExposureGate {
    /** memtomem-stm's later default: long enough for real descriptions, short enough to cap a runaway one. */
    public static final int DEFAULT_MAX_DESCRIPTION_CHARS = 4000;

    private final McpJsonMapper mapper;
    private final int maxDescriptionChars;

    public ExposureGate(McpJsonMapper mapper, int maxDescriptionChars) {
        if (maxDescriptionChars < 32) {
            throw new IllegalArgumentException("max description chars must be >= 32, got " + maxDescriptionChars);
        }
        this.mapper = mapper;
        this.maxDescriptionChars = maxDescriptionChars;
    }

    public ExposureGate(McpJsonMapper mapper) {
        this(mapper, DEFAULT_MAX_DESCRIPTION_CHARS);
    }

    public Exposure expose(List<UpstreamConnection> upstreams, Set<String> reservedNames) {
        return expose(upstreams, reservedNames, false);
    }

    /**
     * As {@link #expose(List, Set)}; with {@code contextQuery} every exposed tool's input schema also
     * offers the optional {@link ExposedTool#CONTEXT_QUERY} string (never replacing an upstream
     * property of that name).
     */
    public Exposure expose(List<UpstreamConnection> upstreams, Set<String> reservedNames, boolean contextQuery) {
        Map<String, List<ExposedTool>> byName = new LinkedHashMap<>();
        Map<String, Map<String, String>> hidden = new HashMap<>();
        for (UpstreamConnection u : upstreams) {
            String server = u.config().name();
            Map<String, String> serverHidden = hidden.computeIfAbsent(server, k -> new TreeMap<>());
            for (Tool t : u.tools()) {
                if (!u.connected()) {
                    serverHidden.put(t.name(), "disconnected");
                    continue;
                }
                if (u.config().overrideFor(t.name()).hidden()) {
                    serverHidden.put(t.name(), "hidden by proxy.json");
                    continue;
                }
                java.util.Optional<String> excluded = u.config().excludedBy(t.name());
                if (excluded.isPresent()) {
                    serverHidden.put(t.name(), "excluded by exclude_tools pattern '" + excluded.get() + "'");
                    continue;
                }
                String name = ToolNames.exposed(u.config().prefix(), t.name());
                String credential = CredentialPatterns.find(metadataText(t)).orElse(null);
                if (credential != null) {
                    serverHidden.put(t.name(), "credential-like metadata (" + credential + ")");
                } else if (reservedNames.contains(name)) {
                    serverHidden.put(t.name(), "name collides with the proxy's own tool " + name);
                } else if (!schemaValid(t)) {
                    serverHidden.put(t.name(), "input schema is not valid JSON Schema 2020-12");
                } else {
                    String override = u.config().overrideFor(t.name()).descriptionOverride();
                    Tool listed = exposedDefinition(name, server, t, override, maxDescriptionChars);
                    if (contextQuery) listed = withContextQuery(listed);
                    byName.computeIfAbsent(name, k -> new ArrayList<>()).add(new ExposedTool(name, server, t, listed));
                }
            }
        }
        List<ExposedTool> exposed = new ArrayList<>();
        for (List<ExposedTool> same : byName.values()) {
            if (same.size() == 1) {
                exposed.add(same.get(0));
            } else {
                for (ExposedTool t : same) {
                    hidden.get(t.server()).put(t.upstream().name(), "name collision on " + t.name());
                }
            }
        }
        Map<String, Exposure.ServerExposure> servers = new LinkedHashMap<>();
        for (UpstreamConnection u : upstreams) {
            String server = u.config().name();
            long count = exposed.stream().filter(t -> t.server().equals(server)).count();
            servers.put(server, new Exposure.ServerExposure(server, u.connected(), u.tools().size(), (int) count,
                    hidden.getOrDefault(server, Map.of())));
        }
        return new Exposure(exposed, servers);
    }

    /**
     * The agent-facing definition: prefixed name, title "[server] Title", no output schema (a
     * compressed result cannot carry the upstream's structured content, and a client that sees an
     * output schema rejects a result without it).
     */
    static Tool exposedDefinition(String name, String server, Tool t, int maxDescriptionChars) {
        return exposedDefinition(name, server, t, null, maxDescriptionChars);
    }

    /** {@code descriptionOverride}, when set, is listed instead of the upstream's text, under the same cap. */
    static Tool exposedDefinition(String name, String server, Tool t, String descriptionOverride, int maxDescriptionChars) {
        String title = t.title() != null ? t.title()
                : t.annotations() != null && t.annotations().title() != null ? t.annotations().title() : t.name();
        ToolAnnotations a = t.annotations();
        // the upstream's own annotations.title is kept (prefixed): it may differ from the tool's title
        ToolAnnotations annotations = a == null ? null : new ToolAnnotations("[" + server + "] " + (a.title() != null ? a.title() : title),
                a.readOnlyHint(), a.destructiveHint(), a.idempotentHint(), a.openWorldHint(), a.returnDirect());
        return Tool.builder(name, t.inputSchema() == null ? Map.of("type", "object") : t.inputSchema())
                .title("[" + server + "] " + title)
                .description(description(name, descriptionOverride != null ? descriptionOverride : t.description(), maxDescriptionChars))
                .annotations(annotations).build();
    }

    /**
     * {@code t} with the optional {@code _context_query} string in its input schema's properties,
     * unless the schema is not an object schema or the upstream declares a property of that name.
     */
    static Tool withContextQuery(Tool t) {
        Map<String, Object> schema = t.inputSchema();
        if (schema == null) schema = Map.of("type", "object");
        Object type = schema.get("type");
        if (type != null && !"object".equals(type)) return t;
        Object props = schema.get("properties");
        if (props != null && !(props instanceof Map<?, ?>)) return t;
        if (props instanceof Map<?, ?> p && p.containsKey(ExposedTool.CONTEXT_QUERY)) return t;
        Map<String, Object> properties = new LinkedHashMap<>();
        if (props instanceof Map<?, ?> p) p.forEach((k, v) -> properties.put(String.valueOf(k), v));
        properties.put(ExposedTool.CONTEXT_QUERY, Map.of("type", "string", "description",
                "Optional: what you are looking for, in a few words. The proxy finds relevant memories with it, shows"
                        + " the parts of a long result that match it, and does not pass it to the tool."));
        Map<String, Object> augmented = new LinkedHashMap<>(schema);
        augmented.put("properties", properties);
        return Tool.builder(t.name(), augmented).title(t.title()).description(t.description())
                .annotations(t.annotations()).build();
    }

    /**
     * Every listed description is paid for in every turn; a long one is cut at a word and points at
     * {@code stm_proxy_describe_tool}, which pages the full text.
     */
    static String description(String name, String full, int max) {
        if (full == null || full.length() <= max) return full;
        String hint = " … [full description: stm_proxy_describe_tool(name=\"" + name + "\")]";
        int end = TextCut.atCodePoint(full, Math.max(0, max - hint.length()));
        int space = full.lastIndexOf(' ', end);
        if (space > end / 2) end = space;
        return full.substring(0, end) + hint;
    }

    private String metadataText(Tool t) {
        StringBuilder sb = new StringBuilder();
        sb.append(t.name()).append('\n').append(t.title()).append('\n').append(t.description()).append('\n');
        try {
            sb.append(mapper.writeValueAsString(t.inputSchema() == null ? Map.of() : t.inputSchema()));
        } catch (IOException e) {
            sb.append(t.inputSchema());
        }
        return sb.toString();
    }

    private static boolean schemaValid(Tool t) {
        if (t.inputSchema() == null) return true;
        try {
            McpJsonDefaults.getSchemaValidator().assertConforms("tool " + t.name() + " inputSchema", t.inputSchema());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
