package dev.engram.proxy.config.importing;

import dev.engram.proxy.config.EffectiveConfig;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an import would do to proxy.json. An upstream whose name exists is never replaced: the
 * same server again is "unchanged", a different one a conflict the user resolves by hand. A
 * prefix another upstream uses gets a number appended. The first of two same-named entries wins.
 */
public record ImportPlan(List<ImportCandidate> add, List<String> unchanged, List<String> conflicts, Found found) {
    public ImportPlan {
        add = List.copyOf(add);
        unchanged = List.copyOf(unchanged);
        conflicts = List.copyOf(conflicts);
    }

    public static ImportPlan of(ProxyConfig existing, Found found) {
        Set<String> prefixes = new HashSet<>();
        existing.upstreams().forEach(u -> prefixes.add(u.prefix()));
        Map<String, ImportCandidate> batch = new LinkedHashMap<>();
        List<ImportCandidate> add = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        for (ImportCandidate c : found.candidates()) {
            String name = c.upstream().name();
            ImportCandidate earlier = batch.get(name);
            if (earlier != null) {
                conflicts.add(name + " [" + c.source() + "]: " + (sameServer(earlier.upstream(), c.upstream())
                        ? "the same server as in " + earlier.source() + "; imported once" : "another server of this name came first, from "
                        + earlier.source() + "; skipped"));
                continue;
            }
            batch.put(name, c);
            var have = existing.find(name);
            if (have.isPresent()) {
                if (sameServer(have.get(), c.upstream())) {
                    unchanged.add(name + " [" + c.source() + "]: already in proxy.json");
                } else {
                    conflicts.add(name + " [" + c.source() + "]: an upstream named '" + name + "' exists and differs; kept as it is"
                            + " (to replace it: engram proxy remove " + name + ", then import again)");
                }
                continue;
            }
            UpstreamConfig u = c.upstream();
            String prefix = ImportNames.prefix(u.prefix(), prefixes);
            List<String> notes = new ArrayList<>(c.notes());
            if (!prefix.equals(u.prefix())) {
                notes.add("prefix '" + u.prefix() + "' is taken; tools appear as " + prefix + "__<tool>");
                u = u.withPrefix(prefix);
            }
            prefixes.add(prefix);
            add.add(new ImportCandidate(u, c.source(), c.projectLocal(), notes));
        }
        return new ImportPlan(add, unchanged, conflicts, found);
    }

    private static boolean sameServer(UpstreamConfig a, UpstreamConfig b) {
        return a.transport().equals(b.transport());
    }

    public List<ImportCandidate> projectLocal() {
        return add.stream().filter(ImportCandidate::projectLocal).toList();
    }

    /** The config with every planned upstream added. */
    public ProxyConfig applyTo(ProxyConfig existing) {
        ProxyConfig out = existing;
        for (ImportCandidate c : add) out = out.with(c.upstream());
        if (changesContextQuery(existing)) out = out.withContextQuery(found.advertiseContextQuery());
        return out;
    }

    /** Whether the import turns proxy.json's advertise_context_query to the file's value. */
    public boolean changesContextQuery(ProxyConfig existing) {
        return found.advertiseContextQuery() != null && found.advertiseContextQuery() != existing.advertiseContextQuery();
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Read: ").append(found.filesRead().isEmpty() ? "no file" : String.join(", ", found.filesRead())).append('\n');
        if (add.isEmpty()) sb.append("Nothing to add.\n");
        else sb.append("To add (").append(add.size()).append("):\n");
        for (ImportCandidate c : add) {
            sb.append("  ").append(c.upstream().name()).append(" [").append(c.upstream().prefix()).append("__*] ")
                    .append(describe(c.upstream().transport())).append("  from ").append(c.source())
                    .append(c.projectLocal() ? "  (project file)" : "").append('\n');
            for (String n : c.notes()) sb.append("      - ").append(n).append('\n');
        }
        if (!unchanged.isEmpty()) sb.append("Unchanged (").append(unchanged.size()).append("):\n");
        unchanged.forEach(u -> sb.append("  ").append(u).append('\n'));
        if (!conflicts.isEmpty()) sb.append("Not imported (").append(conflicts.size()).append("):\n");
        conflicts.forEach(u -> sb.append("  ").append(u).append('\n'));
        if (found.advertiseContextQuery() != null) {
            sb.append("Settings:\n  advertise_context_query ").append(found.advertiseContextQuery())
                    .append(": proxied tools ").append(found.advertiseContextQuery() ? "advertise" : "do not advertise")
                    .append(" the optional _context_query argument\n");
        }
        if (!found.notes().isEmpty()) sb.append("Notes:\n");
        found.notes().forEach(n -> sb.append("  ").append(n).append('\n'));
        return sb.toString();
    }

    public Map<String, Object> data() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("files_read", found.filesRead());
        m.put("add", add.stream().map(c -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", c.upstream().name());
            row.put("prefix", c.upstream().prefix());
            row.put("transport", describe(c.upstream().transport()));
            row.put("source", c.source());
            row.put("project_local", c.projectLocal());
            row.put("notes", c.notes());
            return row;
        }).toList());
        m.put("unchanged", unchanged);
        m.put("not_imported", conflicts);
        m.put("notes", found.notes());
        if (found.advertiseContextQuery() != null) m.put("advertise_context_query", found.advertiseContextQuery());
        return m;
    }

    /**
     * The transport as `list` shows it: header names, never their values; credentials and query
     * values in the URL and user info in arguments hidden (the plan is printed and may be pasted).
     */
    static String describe(UpstreamTransport t) {
        if (t instanceof UpstreamTransport.Stdio s) {
            return "stdio: " + s.command() + (s.args().isEmpty() ? "" : " " + String.join(" ", EffectiveConfig.maskArgs(s.args())))
                    + (s.passEnv().isEmpty() ? "" : " (env: " + String.join(", ", s.passEnv()) + ")");
        }
        UpstreamTransport.Remote h = (UpstreamTransport.Remote) t;
        return h.label() + ": " + EffectiveConfig.maskUrl(h.url()) + (h.headers().isEmpty() ? "" : " (headers: " + String.join(", ", h.headers().keySet()) + ")");
    }
}
