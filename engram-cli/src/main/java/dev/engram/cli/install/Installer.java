package dev.engram.cli.install;

import dev.engram.cli.install.Agent.Places;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code engram init} and {@code engram uninstall}: registers Engram's MCP server (and its hooks) with
 * agents by editing their own config files in place, and takes out exactly what it added. A file it
 * cannot read is refused and left as it is; the others go on; the result says whether any was refused.
 */
public final class Installer {
    /** The server's name in every agent's config. */
    public static final String SERVER = "engram";

    /**
     * What to register: {@code command} starts Engram (the executable and the words before the subcommand),
     * {@code serverArgs} follow it for the MCP server ({@code mcp --profile P}), {@code hookArgs} after a hook's
     * own words ({@code --profile P}); {@code storeArgs} the store options alone (for {@code hook post-tool}, which
     * takes no profile); {@code stopHook} also registers {@code engram hook stop} at the end of each turn (the toon
     * profile's checkpoint); {@code postTool} registers {@code engram hook post-tool} after each native tool call.
     */
    public record Plan(Scope scope, Places places, List<String> command, List<String> serverArgs, List<String> hookArgs,
                       List<String> storeArgs, boolean hooks, boolean capture, boolean postTool, boolean stopHook,
                       boolean dryRun) {
        public Plan {
            command = List.copyOf(command);
            serverArgs = List.copyOf(serverArgs);
            hookArgs = List.copyOf(hookArgs);
            storeArgs = List.copyOf(storeArgs);
        }
    }

    /** The agents whose post-tool events {@code engram hook post-tool} reads (its {@code --host} values). */
    static final java.util.Set<String> POST_TOOL_HOSTS = java.util.Set.of("claude", "codex");

    private final InstallManifest manifest;
    private final PrintStream out;

    public Installer(InstallManifest manifest, PrintStream out) {
        this.manifest = manifest;
        this.out = out;
    }

    /**
     * One edit of one file: the entry to add and what it is, for the messages and the manifest. A JSON or YAML
     * entry is {@code json} (for YAML: the top-level mapping, the key and the value), a TOML one the table and its
     * text; {@code plugin} is the whole text of a file of Engram's own (format null).
     */
    private record Op(Path file, Agent.Format format, String kind, JsonEdit.Entry json, String tomlTable, String tomlBlock,
                      String plugin) {
        Op(Path file, Agent.Format format, String kind, JsonEdit.Entry json, String tomlTable, String tomlBlock) {
            this(file, format, kind, json, tomlTable, tomlBlock, null);
        }
    }

    /** Registers with every agent; returns false when one was refused. */
    public boolean install(List<Agent> agents, Plan plan) throws IOException {
        boolean ok = true;
        boolean changed = false;
        try {
            for (Agent agent : agents) {
                if (agent.withoutMcp() != null) {
                    out.println(agent.name() + ": refused: " + agent.withoutMcp() + ". Nothing was written for " + agent.name() + ".");
                    ok = false;
                    continue;
                }
                Path main = agent.file(plan.scope(), plan.places());
                if (main == null) {
                    out.println(agent.name() + ": refused: it has no " + plan.scope().key() + " MCP config; use --scope "
                            + (plan.scope() == Scope.LOCAL ? "global" : "local"));
                    ok = false;
                    continue;
                }
                Edits edits = edits(agent, plan);
                if (edits.refusal() != null) {
                    out.println(agent.name() + ": refused: " + edits.refusal() + ". Nothing was written for " + agent.name()
                            + "; fix the file (or move it away) and run engram init again.");
                    ok = false;
                    continue;
                }
                try {
                    changed |= apply(agent, plan, edits);
                } catch (IOException e) {
                    // what was written before the failure is recorded (apply records each file as it goes)
                    out.println(agent.name() + ": failed: " + ConfigFiles.why(e) + ". What was written for " + agent.name()
                            + " before it is recorded, so engram uninstall takes it out; fix the cause and run engram init again.");
                    ok = false;
                    continue;
                }
                for (String n : edits.notes()) out.println(agent.name() + ": " + n);
                saveIfChanged(plan.dryRun()); // each agent's record is kept as soon as its files are written
            }
        } finally {
            saveIfChanged(plan.dryRun());
        }
        if (!changed && ok) out.println("Nothing changed: Engram was already registered.");
        if (plan.dryRun()) out.println("Dry run: nothing was written.");
        return ok;
    }

    /** Whether the manifest has records not yet saved. */
    private boolean unsaved;

    private void saveIfChanged(boolean dryRun) throws IOException {
        if (dryRun || !unsaved) return;
        manifest.save();
        unsaved = false;
    }

    /**
     * One agent's edits, computed before anything is written: each file's text before (null: missing) and
     * after, the manifest records to add and those to drop (hooks an earlier init added that this one does not
     * ask for), what to say, or why the agent is refused.
     */
    private record Edits(Map<Path, String> before, Map<Path, String> after, List<InstallManifest.Record> records,
                         List<InstallManifest.Record> dropped, List<String> notes, String refusal) {
        Edits refused(String why) {
            return new Edits(before, after, records, dropped, notes, why);
        }
    }

    private Edits edits(Agent agent, Plan plan) throws IOException {
        Edits edits = new Edits(new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), null);
        Map<Path, String> before = edits.before();
        Map<Path, String> after = edits.after();
        List<InstallManifest.Record> records = edits.records();
        List<String> notes = edits.notes();
        List<Op> ops = ops(agent, plan);
        java.util.Set<Path> adopted = new java.util.HashSet<>();
        java.util.Set<String> byHand = new java.util.HashSet<>();
        for (Op op : ops) {
            boolean json = op.format() != null && op.format().json();
            if (!before.containsKey(op.file())) {
                String text;
                try {
                    text = ConfigFiles.read(op.file());
                } catch (ConfigFiles.Unreadable e) {
                    return edits.refused(e.getMessage());
                }
                before.put(op.file(), text);
                // a missing file, or a blank JSON one (touched, never written), starts as an empty object
                after.put(op.file(), text == null || (json && text.isBlank()) ? (json ? "{}\n" : "") : text);
                try {
                    List<InstallManifest.Record> found = adopt(agent, plan, ops.stream().filter(o -> o.file().equals(op.file())).toList(), text);
                    if (found != null) {
                        adopted.add(op.file());
                        records.addAll(found);
                        for (InstallManifest.Record r : found) {
                            notes.add(r.kind() + " already in " + op.file() + " (unchanged; " + (plan.dryRun() ? "would be recorded" : "now recorded")
                                    + ", so engram uninstall takes it out)");
                        }
                    }
                } catch (JsonDocument.SyntaxError | JsonEdit.Conflict e) {
                    // the edit below says what is wrong with the file
                }
            }
            if (adopted.contains(op.file())) continue;
            String text = after.get(op.file());
            String original = before.get(op.file());
            boolean created = original == null;
            try {
                InstallManifest.Record added = null;
                boolean replaced = false;
                boolean hand = false;
                if (op.plugin() != null) {
                    if (!op.plugin().equals(original)) {
                        if (original != null && !OpenCodePlugin.ours(original)) {
                            throw new JsonEdit.Conflict("it is not Engram's plugin (its first line is not \"" + OpenCodePlugin.MARK
                                    + "\"); move it away, or pass --no-hooks to register the server alone");
                        }
                        after.put(op.file(), op.plugin());
                        added = record(agent, plan, op, created, null, null, null, null, new OpenCodePlugin.Placement(op.plugin(), original));
                        replaced = original != null;
                    }
                } else if (op.format() == Agent.Format.YAML) {
                    @SuppressWarnings("unchecked") Map<String, Object> value = (Map<String, Object>) op.json().value();
                    YamlEdit.Added y = YamlEdit.add(text, op.json().path().get(0), op.json().key(), value);
                    if (y != null) {
                        after.put(op.file(), y.text());
                        added = record(agent, plan, op, created, null, null, null, y.placement(), null);
                        replaced = y.placement().replaced() != null;
                    }
                } else if (op.json() != null) {
                    boolean jsonc = op.format().jsonc();
                    if (JsonEdit.add(text, jsonc, op.json()) instanceof JsonEdit.Inserted ins) {
                        // a hook an earlier init added for this kind, with other words (another profile): replaced, not joined
                        InstallManifest.Record prev = op.json().key() == null ? recorded(op.file(), op.kind()) : null;
                        if (op.json().key() == null && byHand(text, jsonc, op.json(), prev)) {
                            hand = true;
                            byHand.add(op.kind());
                        } else {
                            JsonEdit.Removed old = prev != null && prev.json() != null && prev.json().entry().key() == null
                                    ? JsonEdit.remove(text, jsonc, prev.json()) : null;
                            if (old instanceof JsonEdit.Deleted d && JsonEdit.add(d.text(), jsonc, op.json()) instanceof JsonEdit.Inserted swap) {
                                after.put(op.file(), swap.text());
                                JsonEdit.Placement p = swap.placement();
                                // the containers the first init created stay Engram's to take out (they may still hold
                                // Engram's other hooks now, so the swap alone did not remove them)
                                if (prev.json().anchorDepth() < p.anchorDepth()) {
                                    p = new JsonEdit.Placement(p.entry(), prev.json().anchorDepth(), prev.json().emptyInner(), p.replaced());
                                }
                                added = record(agent, plan, op, prev.createdFile(), p, null, prev.blankOriginal(), null, null)
                                        .withFolders(prev.createdFolders());
                                replaced = true;
                            } else {
                                after.put(op.file(), ins.text());
                                added = record(agent, plan, op, created, ins.placement(), null, blank(original), null, null);
                                replaced = ins.placement().replaced() != null;
                            }
                        }
                    }
                } else {
                    TomlEdit.Added t = TomlEdit.add(text, op.tomlTable(), op.tomlBlock());
                    if (t != null) {
                        after.put(op.file(), t.text());
                        added = record(agent, plan, op, created, null, t.placement(), null, null, null);
                        replaced = t.placement().replaced() != null;
                    }
                }
                if (hand) {
                    notes.add(op.kind() + " already in " + op.file() + " (registered by hand with the same command; left as it is)");
                } else if (added == null) {
                    notes.add(op.kind() + " already in " + op.file() + " (unchanged)");
                } else {
                    records.add(replaced ? chained(added) : added);
                    notes.add(op.kind() + verb(plan.dryRun(), replaced) + op.file() + (op.kind().equals("hook capture") ? CAPTURE_NOTE : ""));
                }
            } catch (JsonDocument.SyntaxError e) {
                return edits.refused(op.file() + " is not valid " + describe(op.format()) + ": " + e.getMessage());
            } catch (JsonEdit.Conflict e) {
                return edits.refused(op.file() + " cannot take the entry: " + e.getMessage());
            }
        }
        try {
            dropStaleHooks(agent, plan, ops, byHand, edits);
        } catch (JsonDocument.SyntaxError e) {
            return edits.refused(e.getMessage());
        }
        for (Map.Entry<Path, String> e : after.entrySet()) {
            String readOnly = e.getValue().equals(before.get(e.getKey())) ? null : ConfigFiles.readOnly(e.getKey());
            if (readOnly != null) {
                return edits.refused(readOnly + ", and engram init does not change a file you made read-only; make it writable"
                        + " (chmod u+w " + e.getKey() + ") or leave this agent out");
            }
        }
        return edits;
    }

    /**
     * The hooks an earlier init recorded adding for this agent here that this run does not ask for (--capture or
     * toon's stop hook left out, another --command): taken out, so a re-run leaves the hooks it was asked for and
     * not the old ones beside them. The user's own hooks are never touched (they have no record). Only when this
     * run registers hooks: --no-hooks, or a command its shell cannot run, leaves them as they are.
     */
    private void dropStaleHooks(Agent agent, Plan plan, List<Op> ops, java.util.Set<String> byHand, Edits edits)
            throws JsonDocument.SyntaxError {
        if (ops.stream().noneMatch(o -> o.kind().startsWith("hook ") && o.json() != null)) return;
        java.util.Set<String> asked = new java.util.HashSet<>();
        for (Op o : ops) if (!byHand.contains(o.kind())) asked.add(o.kind());
        List<InstallManifest.Record> all = manifest.records();
        for (int i = all.size() - 1; i >= 0; i--) {
            InstallManifest.Record r = all.get(i);
            if (!r.agent().equals(agent.name()) || !r.scope().equals(plan.scope().key()) || asked.contains(r.kind())) continue;
            if (r.json() == null || r.json().entry().key() != null || !edits.after().containsKey(r.path())) continue;
            String text = edits.after().get(r.path());
            JsonEdit.Removed removed;
            try {
                removed = JsonEdit.remove(text, !"json".equals(r.format()), r.json());
            } catch (JsonDocument.SyntaxError e) {
                throw new JsonDocument.SyntaxError(r.path() + " is not valid JSON: " + e.getMessage());
            }
            if (removed instanceof JsonEdit.Deleted d) {
                edits.after().put(r.path(), d.text());
                edits.dropped().add(r);
                edits.notes().add(r.kind() + (plan.dryRun() ? " would be removed from " : " removed from ") + r.path()
                        + " (an earlier engram init added it; this one does not ask for it)");
            } else if (removed instanceof JsonEdit.Gone) {
                edits.dropped().add(r);
            } else {
                edits.notes().add("left the " + r.kind() + " an earlier engram init added in " + r.path() + ": it was changed since;"
                        + " engram uninstall leaves it too");
            }
        }
    }

    /**
     * Whether a hook with this very command line is already registered in another shape (with a matcher or a
     * timeout of the user's): the agent would run Engram's hook twice if init added its own. Not the entry an earlier
     * init recorded ({@code prev}): that one is replaced as usual.
     */
    private static boolean byHand(String text, boolean jsonc, JsonEdit.Entry entry, InstallManifest.Record prev)
            throws JsonDocument.SyntaxError {
        List<String> mine = commands(entry.value());
        for (Object element : JsonEdit.elements(text, jsonc, entry.path())) {
            if (prev != null && prev.json() != null && JsonDocument.same(element, prev.json().entry().value())) continue;
            if (commands(element).stream().anyMatch(mine::contains)) return true;
        }
        return false;
    }

    /** The command lines of a hook entry: a handler's own, or those of a matcher group's handlers. */
    private static List<String> commands(Object entry) {
        List<String> out = new ArrayList<>();
        if (!(entry instanceof Map<?, ?> m)) return out;
        if (m.get("command") instanceof String c) out.add(c);
        if (m.get("hooks") instanceof List<?> handlers) {
            for (Object h : handlers) if (h instanceof Map<?, ?> hm && hm.get("command") instanceof String c) out.add(c);
        }
        return out;
    }

    /**
     * The records of entries already in {@code file} exactly as init writes them, that no record accounts for (an
     * init whose record was lost: one that stopped half way, before installs.json was saved): null unless every op of
     * the file finds its entry, and taking them out (last first, as uninstall does) then adding them back gives the
     * file byte for byte. Only then is uninstall sure to take out precisely what init would have added; a file
     * that was nothing but them counts as created by init. YAML entries are not adopted.
     */
    private List<InstallManifest.Record> adopt(Agent agent, Plan plan, List<Op> fileOps, String text)
            throws JsonDocument.SyntaxError, JsonEdit.Conflict {
        if (text == null || text.isBlank() || fileOps.stream().anyMatch(o -> recorded(o.file(), o.kind()) != null)) return null;
        Op first = fileOps.get(0);
        if (first.plugin() != null) {
            return first.plugin().equals(text) ? List.of(record(agent, plan, first, true, null, null, null, null,
                    new OpenCodePlugin.Placement(text, null))) : null;
        }
        if (first.format() == Agent.Format.YAML) return null;
        if (first.format() == Agent.Format.TOML) {
            if (fileOps.size() != 1) return null;
            TomlEdit.Added t = TomlEdit.adopt(text, first.tomlTable(), first.tomlBlock());
            return t == null ? null : List.of(record(agent, plan, first, t.text().isEmpty(), null, t.placement(), null, null, null));
        }
        boolean jsonc = first.format().jsonc();
        List<JsonEdit.Placement> placements = new ArrayList<>();
        String now = text;
        for (int i = fileOps.size() - 1; i >= 0; i--) {
            JsonEdit.Inserted found = JsonEdit.adopt(now, jsonc, fileOps.get(i).json());
            if (found == null) return null;
            placements.add(0, found.placement());
            now = found.text();
        }
        boolean created = now.equals(JsonEdit.newlines(text, "{}\n"));
        List<InstallManifest.Record> out = new ArrayList<>();
        for (int i = 0; i < fileOps.size(); i++) out.add(record(agent, plan, fileOps.get(i), created, placements.get(i), null, null, null, null));
        return out;
    }

    /**
     * An addition that replaced what an earlier init wrote (and recorded, still as written) takes over that one's way
     * back: uninstall then returns the file to where it was before the first init (an entry removed, a file init
     * created deleted), not to the earlier Engram entry. Anything else it replaced is put back as it was.
     */
    private InstallManifest.Record chained(InstallManifest.Record added) {
        InstallManifest.Record prev = recorded(added.path(), added.kind());
        if (prev == null) return added;
        if (added.plugin() != null && prev.plugin() != null && prev.plugin().text().equals(added.plugin().replaced())) {
            return new InstallManifest.Record(added.agent(), added.scope(), added.file(), added.kind(), added.format(), prev.createdFile(),
                    prev.createdFolders(), null, null, null, null, new OpenCodePlugin.Placement(added.plugin().text(), prev.plugin().replaced()));
        }
        if (added.toml() != null && prev.toml() != null && added.toml().replaced() != null
                && prev.toml().block().strip().equals(added.toml().replaced().strip())) {
            TomlEdit.Placement t = added.toml();
            return new InstallManifest.Record(added.agent(), added.scope(), added.file(), added.kind(), added.format(), prev.createdFile(),
                    prev.createdFolders(), null, new TomlEdit.Placement(t.table(), t.block(), prev.toml().prefix(), prev.toml().replaced()),
                    null, null, null);
        }
        if (added.yaml() != null && prev.yaml() != null && added.yaml().replaced() != null
                && YamlEdit.ours(YamlEdit.entryValue(added.yaml().replaced(), added.yaml().key()), prev.yaml().value())) {
            YamlEdit.Placement y = added.yaml();
            YamlEdit.Placement p = prev.yaml();
            return new InstallManifest.Record(added.agent(), added.scope(), added.file(), added.kind(), added.format(), prev.createdFile(),
                    prev.createdFolders(), null, null, null, new YamlEdit.Placement(y.section(), y.key(), y.value(), y.block(), p.prefix(),
                    p.createdSection(), p.replaced()), null);
        }
        if (added.json() != null && prev.json() != null && added.json().replaced() != null) {
            try {
                Object replaced = JsonDocument.parse(added.json().replaced(), true).value();
                if (JsonDocument.same(replaced, prev.json().entry().value())) {
                    JsonEdit.Placement p = prev.json();
                    return new InstallManifest.Record(added.agent(), added.scope(), added.file(), added.kind(), added.format(),
                            prev.createdFile(), prev.createdFolders(), new JsonEdit.Placement(added.json().entry(), p.anchorDepth(),
                            p.emptyInner(), p.replaced()), null, prev.blankOriginal(), null, null);
                }
            } catch (JsonDocument.SyntaxError | RuntimeException e) {
                // not an object Engram wrote: put back as it was
            }
        }
        return added;
    }

    /** What an earlier init recorded adding to this file under this kind, or null. */
    private InstallManifest.Record recorded(Path file, String kind) {
        return manifest.records().stream().filter(r -> r.path().equals(file) && r.kind().equals(kind)).findFirst().orElse(null);
    }

    /**
     * Writes (or, in a dry run, prints) the agent's changed files; whether any file changed. Each file's records are
     * put in the manifest as soon as it is written, so a later failure does not leave entries uninstall cannot find.
     */
    private boolean apply(Agent agent, Plan plan, Edits edits) throws IOException {
        boolean changed = false;
        java.util.Set<Path> written = new java.util.HashSet<>();
        for (Map.Entry<Path, String> e : edits.after().entrySet()) {
            String old = edits.before().get(e.getKey());
            if (e.getValue().equals(old)) continue;
            changed = true;
            if (plan.dryRun()) {
                out.println(agent.name() + ": would " + (old == null ? "create " : "change ") + e.getKey() + ":");
                out.print(ConfigFiles.diff(old, e.getValue()));
                continue;
            }
            List<String> folders = ConfigFiles.missingFolders(e.getKey()).stream().map(Path::toString).toList();
            Files.createDirectories(e.getKey().toAbsolutePath().getParent());
            ConfigFiles.write(e.getKey(), e.getValue());
            // the folders this write created go with the file at uninstall
            record(edits, e.getKey(), old == null ? folders : null);
            written.add(e.getKey());
        }
        if (!plan.dryRun()) {
            for (Path file : edits.after().keySet()) if (!written.contains(file)) record(edits, file, null); // entries adopted as they are
        }
        return changed;
    }

    /** Puts the records of one file in the manifest (with the folders its write created) and drops those it no longer holds. */
    private void record(Edits edits, Path file, List<String> folders) {
        for (InstallManifest.Record r : edits.records()) {
            if (!r.path().equals(file)) continue;
            manifest.put(folders != null && r.createdFile() ? r.withFolders(folders) : r);
            unsaved = true;
        }
        for (InstallManifest.Record r : edits.dropped()) {
            if (!r.path().equals(file) || !manifest.records().contains(r)) continue;
            manifest.remove(r);
            unsaved = true;
        }
    }

    /** Takes out what init added for these agents at this scope; returns false when a file was refused. */
    public boolean uninstall(List<String> agents, Scope scope, Places places, boolean dryRun) throws IOException {
        List<InstallManifest.Record> mine = new ArrayList<>();
        for (InstallManifest.Record r : manifest.records()) {
            if (!r.scope().equals(scope.key()) || !agents.contains(r.agent())) continue;
            Agent agent = Agents.find(r.agent()).orElse(null);
            if (agent == null || !ownedHere(agent, scope, places, r.path())) continue;
            mine.add(r);
        }
        if (mine.isEmpty()) {
            Scope other = scope == Scope.LOCAL ? Scope.GLOBAL : Scope.LOCAL;
            boolean elsewhere = manifest.records().stream().anyMatch(r -> r.scope().equals(other.key()) && agents.contains(r.agent()));
            out.println("Nothing to remove: engram init added nothing here at " + scope.key() + " scope"
                    + (agents.size() < Agents.ALL.size() ? " for " + String.join(", ", agents) : "")
                    + (elsewhere ? " (init --scope " + other.key() + " entries are removed with uninstall --scope " + other.key() + ")" : "")
                    + ".");
            return true;
        }
        boolean ok = true;
        Map<Path, String> before = new LinkedHashMap<>();
        Map<Path, String> after = new LinkedHashMap<>();
        Map<Path, List<String>> deleteFolders = new LinkedHashMap<>();
        List<Path> refused = new ArrayList<>();
        List<InstallManifest.Record> done = new ArrayList<>();
        for (int i = mine.size() - 1; i >= 0; i--) {
            InstallManifest.Record r = mine.get(i);
            Path file = r.path();
            if (refused.contains(file)) continue;
            if (!before.containsKey(file)) {
                String text;
                try {
                    text = ConfigFiles.read(file);
                } catch (ConfigFiles.Unreadable e) {
                    out.println(r.agent() + ": refused: " + e.getMessage() + ". It was left untouched; fix it and run engram uninstall again.");
                    refused.add(file);
                    ok = false;
                    continue;
                }
                before.put(file, text);
                after.put(file, text);
            }
            String text = after.get(file);
            if (text == null) {
                out.println(r.agent() + ": " + r.kind() + " already gone (" + file + " does not exist)");
                done.add(r);
                continue;
            }
            try {
                String result;
                if (r.plugin() != null) {
                    if (!text.equals(r.plugin().text())) {
                        out.println(r.agent() + ": left the " + r.kind() + " " + file + ": it was changed since engram init wrote it");
                        done.add(r);
                        continue;
                    }
                    result = r.plugin().replaced(); // null: init created it, and it goes
                } else if (r.json() != null) {
                    JsonEdit.Removed removed = JsonEdit.remove(text, !"json".equals(r.format()), r.json());
                    if (removed instanceof JsonEdit.Edited) {
                        out.println(r.agent() + ": left the " + r.kind() + " in " + file + ": it was changed since engram init wrote it");
                        done.add(r);
                        continue;
                    }
                    if (removed instanceof JsonEdit.Gone) {
                        out.println(r.agent() + ": " + r.kind() + " already gone from " + file);
                        done.add(r);
                        continue;
                    }
                    JsonEdit.Deleted d = (JsonEdit.Deleted) removed;
                    result = !d.rootEmpty() ? d.text() : r.createdFile() ? null : r.blankOriginal() != null ? r.blankOriginal() : d.text();
                } else {
                    TextRemoval removal = r.yaml() != null ? YamlEdit.remove(text, r.yaml()) : TomlEdit.remove(text, r.toml());
                    if (removal.edited() != null) {
                        out.println(r.agent() + ": left " + (r.yaml() != null ? "the " + r.kind() : "[" + r.toml().table() + "]")
                                + " in " + file + ": it was changed since engram init wrote it"
                                + (removal.edited().endsWith(" added under it") ? " (" + removal.edited() + ")" : ""));
                        done.add(r);
                        continue;
                    }
                    if (removal.text() == null) {
                        out.println(r.agent() + ": " + r.kind() + " already gone from " + file);
                        done.add(r);
                        continue;
                    }
                    result = removal.text().isBlank() && r.createdFile() ? null : removal.text();
                }
                after.put(file, result);
                if (result == null) deleteFolders.put(file, r.createdFolders());
                out.println(r.agent() + ": " + (dryRun ? "would remove " : "removed ") + r.kind() + " from " + file
                        + (result == null ? (dryRun ? " (and delete the file init created)" : " (deleted the file init created)") : ""));
                done.add(r);
            } catch (JsonDocument.SyntaxError e) {
                out.println(r.agent() + ": refused: " + file + " is not valid " + r.format().toUpperCase(java.util.Locale.ROOT) + ": "
                        + e.getMessage() + ". It was left untouched; fix it and run engram uninstall again.");
                refused.add(file);
                after.put(file, before.get(file));
                ok = false;
            }
        }
        for (Map.Entry<Path, String> e : after.entrySet()) {
            Path file = e.getKey();
            String old = before.get(file);
            if (refused.contains(file) || old == null || old.equals(e.getValue())) continue;
            String readOnly = ConfigFiles.readOnly(file);
            if (readOnly != null) {
                out.println("refused: " + readOnly + ", and engram uninstall does not change a file you made read-only; it was left"
                        + " untouched: make it writable (chmod u+w " + file + ") and run engram uninstall again.");
                refused.add(file);
                ok = false;
                continue;
            }
            if (dryRun) {
                if (e.getValue() == null) out.println("would delete " + file);
                else {
                    out.println("would change " + file + ":");
                    out.print(ConfigFiles.diff(old, e.getValue()));
                }
                continue;
            }
            try {
                write(file, e.getValue(), deleteFolders.getOrDefault(file, List.of()));
            } catch (IOException x) {
                out.println("failed: " + ConfigFiles.why(x) + "; " + file + " keeps what engram init added, and its record stays: fix the"
                        + " cause and run engram uninstall again.");
                refused.add(file);
                ok = false;
            }
        }
        if (!dryRun) {
            done.stream().filter(r -> !refused.contains(r.path())).forEach(manifest::remove);
            manifest.save();
        } else {
            out.println("Dry run: nothing was written.");
        }
        return ok;
    }

    /** Writes a file's new text, or (null) deletes it and the folders init created for it that are empty now. */
    private static void write(Path file, String text, List<String> createdFolders) throws IOException {
        if (text != null) {
            ConfigFiles.write(file, text);
            return;
        }
        Files.deleteIfExists(file);
        for (String folder : createdFolders) {
            Path f = Path.of(folder);
            try (var entries = Files.list(f)) {
                if (entries.findAny().isPresent()) break;
            } catch (IOException x) {
                break;
            }
            Files.deleteIfExists(f);
        }
    }

    /** Whether {@code file} is one this agent's config (or hooks) would use here: uninstall keeps to this project. */
    private static boolean ownedHere(Agent agent, Scope scope, Places places, Path file) {
        Path main = agent.file(scope, places);
        if (main != null && main.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize())) return true;
        if (agent.hooks() == null) return false;
        Path hooks = (scope == Scope.LOCAL ? agent.hooks().local() : agent.hooks().global()).apply(places);
        return hooks.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize());
    }

    private List<Op> ops(Agent agent, Plan plan) {
        List<Op> ops = new ArrayList<>();
        Path file = agent.file(plan.scope(), plan.places());
        String command = plan.command().get(0);
        List<String> args = new ArrayList<>(plan.command().subList(1, plan.command().size()));
        args.addAll(plan.serverArgs());
        if (agent.format() == Agent.Format.TOML) {
            String table = String.join(".", agent.serversPath()) + "." + SERVER;
            String block = "[" + table + "]\ncommand = " + tomlString(command) + "\nargs = ["
                    + String.join(", ", args.stream().map(Installer::tomlString).toList()) + "]\n";
            ops.add(new Op(file, agent.format(), "server", null, table, block));
        } else if (agent.format() == Agent.Format.YAML) {
            // the top-level mapping serversPath[0] gets the entry SERVER
            ops.add(new Op(file, agent.format(), "server", new JsonEdit.Entry(List.of(agent.serversPath().get(0)), SERVER,
                    agent.shape().entry(command, args)), null, null));
        } else {
            ops.add(new Op(file, agent.format(), "server", new JsonEdit.Entry(agent.serversPath(), SERVER,
                    agent.shape().entry(command, args)), null, null));
        }
        if (plan.hooks() && agent.hooks() != null && agent.hooks().plugin()) {
            plugin(ops, agent, plan);
        } else if (plan.hooks() && agent.hooks() != null) {
            Agent.Hooks h = agent.hooks();
            HookShell shell = h.shell(plan.places());
            Path hookFile = (plan.scope() == Scope.LOCAL ? h.local() : h.global()).apply(plan.places());
            Agent.Format hookFormat = hookFile.equals(file) ? agent.format() : Agent.Format.JSON;
            List<Op> hookOps = new ArrayList<>();
            StringBuilder why = new StringBuilder();
            boolean ok = hook(hookOps, hookFile, hookFormat, "hook session-start", h.sessionStart(), h, "engram-session-start",
                    shell, plan.command(), List.of("hook", "session-start", agent.name()), plan.hookArgs(), why);
            if (ok && plan.capture()) {
                ok = hook(hookOps, hookFile, hookFormat, "hook capture", h.afterTool(), h, "engram-capture", shell, plan.command(),
                        List.of("hook", "capture", agent.name()), List.of(), why);
            }
            if (ok && plan.postTool() && POST_TOOL_HOSTS.contains(agent.name())) {
                ok = hook(hookOps, hookFile, hookFormat, "hook post-tool", h.afterTool(), h, "engram-post-tool", shell, plan.command(),
                        List.of("hook", "post-tool", "--host", agent.name()), plan.storeArgs(), why);
            } else if (plan.postTool()) {
                out.println(agent.name() + ": no post-tool hook registered: engram hook post-tool reads the events of"
                        + " Claude Code, Codex and Cursor (Cursor's hooks file is not written by init)");
            }
            if (ok && plan.stopHook()) {
                // Antigravity reads every hook's stdout as its own JSON: the hook is told whom it answers
                List<String> stop = agent.name().equals("antigravity") ? List.of("hook", "stop", agent.name()) : List.of("hook", "stop");
                ok = hook(hookOps, hookFile, hookFormat, "hook stop", h.stop(), h, "engram-stop", shell, plan.command(),
                        stop, plan.hookArgs(), why);
            }
            if (ok) ops.addAll(hookOps);
            else out.println(agent.name() + ": no hooks registered (the MCP server is): " + why);
        }
        return ops;
    }

    /**
     * The agent's hooks as a plugin file of Engram's own (OpenCode): the session-start hook, with --capture the capture
     * hook, with the toon profile the stop hook. Node starts the command without a shell, which on Windows cannot run a
     * .cmd or .bat file: such a command gets no plugin, and says why.
     */
    private void plugin(List<Op> ops, Agent agent, Plan plan) {
        String program = plan.command().get(0).toLowerCase(java.util.Locale.ROOT);
        if (plan.places().windows() && (program.endsWith(".cmd") || program.endsWith(".bat"))) {
            out.println(agent.name() + ": no hooks registered (the MCP server is): its plugin starts Engram without a shell, which"
                    + " cannot run the batch file " + plan.command().get(0) + "; give --command the .exe or `java -jar engram.jar`");
            return;
        }
        if (plan.postTool()) {
            out.println(agent.name() + ": no post-tool hook registered: engram hook post-tool reads the events of"
                    + " Claude Code, Codex and Cursor (Cursor's hooks file is not written by init)");
        }
        List<String> start = new ArrayList<>(List.of("hook", "session-start", agent.name()));
        start.addAll(plan.hookArgs());
        List<String> stop = null;
        if (plan.stopHook()) {
            stop = new ArrayList<>(List.of("hook", "stop"));
            stop.addAll(plan.hookArgs());
        }
        Path file = (plan.scope() == Scope.LOCAL ? agent.hooks().local() : agent.hooks().global()).apply(plan.places());
        ops.add(new Op(file, null, "hooks plugin", null, null, null, OpenCodePlugin.text(plan.command(), start,
                plan.capture() ? List.of("hook", "capture", agent.name()) : null, stop)));
    }

    private static InstallManifest.Record record(Agent agent, Plan plan, Op op, boolean created, JsonEdit.Placement json,
                                                 TomlEdit.Placement toml, String blankOriginal, YamlEdit.Placement yaml,
                                                 OpenCodePlugin.Placement plugin) {
        String format = op.format() == null ? "js" : op.format().key();
        return new InstallManifest.Record(agent.name(), plan.scope().key(), op.file().toString(), op.kind(), format, created,
                List.of(), json, toml, blankOriginal, yaml, plugin);
    }

    /** The text of a file that exists but holds nothing but whitespace, else null. */
    private static String blank(String text) {
        return text != null && text.isBlank() ? text : null;
    }

    /** The capture hook is toon's opt-in log: registered, it still writes nothing until capture is turned on. */
    static final String CAPTURE_NOTE = " (it logs once ENGRAM_CAPTURE=1 is in the agent's environment, or"
            + " .toon-memory/memory/config.json says \"capture\": true)";

    private static String verb(boolean dryRun, boolean replaced) {
        return dryRun ? (replaced ? " would be updated in " : " would be added to ") : (replaced ? " updated in " : " added to ");
    }

    private static String describe(Agent.Format f) {
        return switch (f) {
            case JSON -> "JSON";
            case JSONC -> "JSON (comments allowed)";
            case JSON5 -> "JSON5 as engram init reads it (JSON with comments and trailing commas; unquoted keys, single quotes"
                    + " and the like are refused, not guessed at)";
            case TOML -> "TOML";
            case YAML -> "YAML";
        };
    }

    /**
     * Adds one hook's entry, its command line written for the shell the agent runs hooks with; false (and
     * {@code why} filled) when that shell cannot be given one of its words.
     */
    private static boolean hook(List<Op> ops, Path file, Agent.Format format, String kind, String event, Agent.Hooks h,
                                String handlerName, HookShell shell, List<String> command, List<String> subcommand,
                                List<String> more, StringBuilder why) {
        List<String> words = new ArrayList<>(command);
        words.addAll(subcommand);
        words.addAll(more);
        java.util.Optional<String> line = shell.line(words, why);
        line.ifPresent(l -> ops.add(new Op(file, format, kind, new JsonEdit.Entry(List.of(h.container(), event), null,
                h.entry(event, handlerName, l)), null, null)));
        return line.isPresent();
    }

    static String tomlString(String s) {
        return JsonEdit.quote(s); // a JSON string with these escapes is a TOML basic string
    }
}
