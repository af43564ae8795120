package dev.engram.cli.install;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code engram init} added, so {@code engram uninstall} takes out exactly that: one record per
 * entry written (a server, a hook), with the file, whether init created the file and its folders, and
 * the placement the edit needs to undo itself. Kept as {@code installs.json} in the user's Engram data
 * folder; entries init found already present are not recorded, so uninstall never removes them, unless they are
 * byte for byte what init writes (an init that stopped before saving its record wrote them): those are adopted.
 */
public final class InstallManifest {
    public static final String FILE = "installs.json";

    /**
     * One entry: {@code kind} is "server", "hook session-start", "hook capture", "hook post-tool", "hook stop" or
     * "hooks plugin" (a whole file of Engram's: OpenCode's); {@code json}, {@code toml}, {@code yaml} or {@code plugin}
     * holds the placement; {@code blankOriginal} is the text of a JSON file that was there but blank (init wrote into
     * it as into a new one; uninstall puts the blank text back).
     */
    public record Record(String agent, String scope, String file, String kind, String format, boolean createdFile,
                         List<String> createdFolders, JsonEdit.Placement json, TomlEdit.Placement toml, String blankOriginal,
                         YamlEdit.Placement yaml, OpenCodePlugin.Placement plugin) {
        public Record {
            createdFolders = List.copyOf(createdFolders);
        }

        /** The same record with the folders the write created. */
        Record withFolders(List<String> folders) {
            return new Record(agent, scope, file, kind, format, createdFile, folders, json, toml, blankOriginal, yaml, plugin);
        }

        Path path() {
            return Path.of(file);
        }
    }

    private final Path file;
    private final Function<String, Map<String, Object>> reader;
    private final Function<Object, String> writer;
    private final List<Record> records;

    private InstallManifest(Path file, Function<String, Map<String, Object>> reader, Function<Object, String> writer,
                            List<Record> records) {
        this.file = file;
        this.reader = reader;
        this.writer = writer;
        this.records = records;
    }

    /** The manifest in {@code file}; an unreadable one is an error (uninstall must not guess what it added). */
    public static InstallManifest load(Path file, Function<String, Map<String, Object>> reader, Function<Object, String> writer)
            throws IOException {
        String text = ConfigFiles.read(file);
        List<Record> records = new ArrayList<>();
        if (text != null && !text.isBlank()) {
            Map<String, Object> root;
            try {
                root = reader.apply(text);
            } catch (RuntimeException e) {
                throw new IOException(file + " (engram init's record of what it added) cannot be read: " + e.getMessage());
            }
            if (root.get("entries") instanceof List<?> list) {
                for (Object o : list) if (o instanceof Map<?, ?> m) records.add(record(m));
            }
        }
        return new InstallManifest(file, reader, writer, records);
    }

    /** Work on the manifest while holding it. */
    public interface Work<T> {
        T run(InstallManifest manifest) throws IOException;
    }

    /**
     * Loads the manifest and runs {@code work} under an exclusive lock on {@code installs.json.lock}, so two
     * installers at once do not lose each other's records. A dry run reads without locking: it writes nothing.
     */
    public static <T> T locked(Path file, boolean dryRun, Function<String, Map<String, Object>> reader, Function<Object, String> writer,
                               Work<T> work) throws IOException {
        if (dryRun) return work.run(load(file, reader, writer));
        java.nio.file.Files.createDirectories(file.getParent());
        Path lock = file.resolveSibling(file.getFileName() + ".lock");
        try (var ch = java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             var held = ch.lock()) {
            return work.run(load(file, reader, writer));
        }
    }

    public Path file() {
        return file;
    }

    public List<Record> records() {
        return List.copyOf(records);
    }

    /**
     * Adds a record, replacing an older one for the same file and kind in its place (that entry was re-added): the
     * order stays that of the first init, so uninstall, which takes entries out last first, still takes out the one
     * that created a shared container after those added into it.
     */
    public void put(Record r) {
        for (int i = 0; i < records.size(); i++) {
            Record x = records.get(i);
            if (x.file().equals(r.file()) && x.kind().equals(r.kind())) {
                records.set(i, r);
                records.removeIf(y -> y != r && y.file().equals(r.file()) && y.kind().equals(r.kind()));
                return;
            }
        }
        records.add(r);
    }

    public void remove(Record r) {
        records.remove(r);
    }

    public void save() throws IOException {
        List<Object> entries = new ArrayList<>();
        for (Record r : records) entries.add(map(r));
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("version", 1);
        root.put("entries", entries);
        java.nio.file.Files.createDirectories(file.getParent());
        ConfigFiles.write(file, writer.apply(root) + "\n");
    }

    private static Map<String, Object> map(Record r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent", r.agent());
        m.put("scope", r.scope());
        m.put("file", r.file());
        m.put("kind", r.kind());
        m.put("format", r.format());
        m.put("createdFile", r.createdFile());
        m.put("createdFolders", r.createdFolders());
        if (r.blankOriginal() != null) m.put("blankOriginal", r.blankOriginal());
        if (r.json() != null) {
            JsonEdit.Placement p = r.json();
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("path", p.entry().path());
            j.put("key", p.entry().key());
            j.put("value", p.entry().value());
            j.put("anchorDepth", p.anchorDepth());
            j.put("emptyInner", p.emptyInner());
            j.put("replaced", p.replaced());
            m.put("json", j);
        }
        if (r.toml() != null) {
            TomlEdit.Placement p = r.toml();
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("table", p.table());
            t.put("block", p.block());
            t.put("prefix", p.prefix());
            t.put("replaced", p.replaced());
            m.put("toml", t);
        }
        if (r.yaml() != null) {
            YamlEdit.Placement p = r.yaml();
            Map<String, Object> y = new LinkedHashMap<>();
            y.put("section", p.section());
            y.put("key", p.key());
            y.put("value", p.value());
            y.put("block", p.block());
            y.put("prefix", p.prefix());
            y.put("createdSection", p.createdSection());
            y.put("replaced", p.replaced());
            m.put("yaml", y);
        }
        if (r.plugin() != null) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("text", r.plugin().text());
            f.put("replaced", r.plugin().replaced());
            m.put("plugin", f);
        }
        return m;
    }

    private static Record record(Map<?, ?> m) {
        JsonEdit.Placement json = null;
        if (m.get("json") instanceof Map<?, ?> j) {
            List<String> path = new ArrayList<>();
            if (j.get("path") instanceof List<?> l) for (Object o : l) path.add(String.valueOf(o));
            json = new JsonEdit.Placement(new JsonEdit.Entry(path, (String) j.get("key"), j.get("value")),
                    ((Number) j.get("anchorDepth")).intValue(), (String) j.get("emptyInner"), (String) j.get("replaced"));
        }
        TomlEdit.Placement toml = null;
        if (m.get("toml") instanceof Map<?, ?> t) {
            toml = new TomlEdit.Placement((String) t.get("table"), (String) t.get("block"), (String) t.get("prefix"),
                    (String) t.get("replaced"));
        }
        YamlEdit.Placement yaml = null;
        if (m.get("yaml") instanceof Map<?, ?> y) {
            yaml = new YamlEdit.Placement((String) y.get("section"), (String) y.get("key"), y.get("value"), (String) y.get("block"),
                    (String) y.get("prefix"), Boolean.TRUE.equals(y.get("createdSection")), (String) y.get("replaced"));
        }
        OpenCodePlugin.Placement plugin = null;
        if (m.get("plugin") instanceof Map<?, ?> f) plugin = new OpenCodePlugin.Placement((String) f.get("text"), (String) f.get("replaced"));
        List<String> folders = new ArrayList<>();
        if (m.get("createdFolders") instanceof List<?> l) for (Object o : l) folders.add(String.valueOf(o));
        return new Record((String) m.get("agent"), (String) m.get("scope"), (String) m.get("file"), (String) m.get("kind"),
                (String) m.get("format"), Boolean.TRUE.equals(m.get("createdFile")), folders, json, toml,
                m.get("blankOriginal") instanceof String b ? b : null, yaml, plugin);
    }
}
