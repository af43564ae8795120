package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The resources, resource templates and prompts of connected upstreams that advertise them, under
 * their server's prefix so two upstreams cannot collide: a prompt {@code greet} of prefix {@code ev}
 * is listed as {@code ev__greet}; a resource {@code test://static/1} as {@code ev+test://static/1}
 * ({@link #uri}: a prefix never holds {@code +}, so the first one splits it back). Entries whose
 * metadata looks like it holds a credential are left out, as tools are; two prompts whose names
 * meet after mapping are both left out.
 */
public record Catalog(List<ProxiedResource> resources, List<ProxiedTemplate> templates, List<ProxiedPrompt> prompts) {
    public static final Catalog EMPTY = new Catalog(List.of(), List.of(), List.of());
    /** Between the prefix and an upstream URI. */
    public static final String URI_SEPARATOR = "+";

    public Catalog {
        resources = List.copyOf(resources);
        templates = List.copyOf(templates);
        prompts = List.copyOf(prompts);
    }

    /** A resource as listed ({@code exposed}, URI prefixed) and the upstream URI it reads. */
    public record ProxiedResource(String server, String upstreamUri, Resource exposed) {
    }

    public record ProxiedTemplate(String server, String upstreamTemplate, ResourceTemplate exposed) {
    }

    public record ProxiedPrompt(String server, String upstreamName, Prompt exposed) {
    }

    public static String uri(String prefix, String upstreamUri) {
        return prefix + URI_SEPARATOR + upstreamUri;
    }

    /** The server prefix and upstream URI of an exposed URI, if it has the shape {@code prefix+uri}. */
    public static Optional<String[]> split(String exposedUri) {
        int at = exposedUri == null ? -1 : exposedUri.indexOf(URI_SEPARATOR);
        if (at <= 0 || at == exposedUri.length() - 1) return Optional.empty();
        return Optional.of(new String[] {exposedUri.substring(0, at), exposedUri.substring(at + 1)});
    }

    public static Catalog of(List<UpstreamConnection> upstreams) {
        List<ProxiedResource> resources = new ArrayList<>();
        List<ProxiedTemplate> templates = new ArrayList<>();
        Map<String, List<ProxiedPrompt>> prompts = new LinkedHashMap<>();
        for (UpstreamConnection u : upstreams) {
            if (!u.connected()) continue;
            String server = u.config().name();
            String prefix = u.config().prefix();
            Set<String> seen = new HashSet<>();
            for (Resource r : u.resources()) {
                if (r.uri() == null || !seen.add(r.uri()) || leaks(r.uri(), r.name(), r.title(), r.description())) continue;
                resources.add(new ProxiedResource(server, r.uri(), new Resource(uri(prefix, r.uri()), r.name(),
                        "[" + server + "] " + (r.title() != null ? r.title() : r.name()), r.description(), r.mimeType(), r.size(),
                        r.annotations(), r.meta(), r.icons())));
            }
            for (ResourceTemplate t : u.resourceTemplates()) {
                if (t.uriTemplate() == null || leaks(t.uriTemplate(), t.name(), t.title(), t.description())) continue;
                templates.add(new ProxiedTemplate(server, t.uriTemplate(), new ResourceTemplate(uri(prefix, t.uriTemplate()), t.name(),
                        "[" + server + "] " + (t.title() != null ? t.title() : t.name()), t.description(), t.mimeType(),
                        t.annotations(), t.meta(), t.icons())));
            }
            for (Prompt p : u.prompts()) {
                if (p.name() == null || leaks(p.name(), p.title(), p.description(), String.valueOf(p.arguments()))) continue;
                String name = ToolNames.exposed(prefix, p.name());
                prompts.computeIfAbsent(name, k -> new ArrayList<>()).add(new ProxiedPrompt(server, p.name(), new Prompt(name,
                        "[" + server + "] " + (p.title() != null ? p.title() : p.name()), p.description(), p.arguments(), p.meta(),
                        p.icons())));
            }
        }
        List<ProxiedPrompt> unique = prompts.values().stream().filter(l -> l.size() == 1).map(l -> l.get(0)).toList();
        return new Catalog(resources, templates, unique);
    }

    public Optional<ProxiedPrompt> prompt(String name) {
        return prompts.stream().filter(p -> p.exposed().name().equals(name)).findFirst();
    }

    private static boolean leaks(String... texts) {
        StringBuilder sb = new StringBuilder();
        for (String t : texts) if (t != null) sb.append(t).append('\n');
        return CredentialPatterns.find(sb.toString()).isPresent();
    }
}
