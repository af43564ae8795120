package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.engine.RecallBias;
import dev.engram.engine.ExportRecord;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the toon tools share: the engine, the zone (toon has no zone argument: one project, one zone),
 * the project directory (toon's evidence and file checks are relative to it) and the clock.
 */
final class ToonContext {
    private final ProfileContext context;
    private final Path project;
    private final Path globalFile;
    private final Clock clock;
    private final Path memoryDir;
    private final String vaultKey;

    ToonContext(ProfileContext context, Path project, Path globalFile, Clock clock) {
        this(context, project, globalFile, clock, null, null);
    }

    /**
     * @param memoryDir toon's memory folder (capture log, vault, backups); null: {@code project/.toon-memory/memory}
     * @param vaultKey  the secrets vault's key (64 hex), null when none is set
     */
    ToonContext(ProfileContext context, Path project, Path globalFile, Clock clock, Path memoryDir, String vaultKey) {
        this.context = context;
        this.project = project;
        this.globalFile = globalFile;
        this.clock = clock;
        this.memoryDir = memoryDir != null ? memoryDir : project.resolve(ToonData.FOLDER).resolve("memory");
        this.vaultKey = vaultKey;
    }

    /** toon's memory folder: where its capture log, secrets vault and backups live. */
    Path memoryDir() {
        return memoryDir;
    }

    /** The server's TOON_MEMORY_KEY / ENGRAM_KEY as given (unchecked), null when unset. */
    String envKey() {
        return vaultKey;
    }

    /**
     * Refuses a tool that would write the memory out in the clear while the store is encrypted at rest: that would undo
     * the encryption without a word (memory_backup seals its file instead; engram export writes one on purpose).
     */
    void refuseInTheClear(String tool) {
        if (engine().encryption().map(dev.engram.spi.StoreEncryption::encrypted).orElse(false)) {
            throw new dev.engram.error.EngramUserException(tool + " would write the memory in the clear, and the store is"
                    + " encrypted at rest: run memory_decrypt first, or write a copy on purpose with `engram export`; nothing was"
                    + " written");
        }
    }

    ToonVault vault() {
        return new ToonVault(memoryDir, vaultKey);
    }

    Clock clock() {
        return clock;
    }

    /** A profile setting given by the command line, or null. */
    String setting(String name) {
        return context.setting(name);
    }

    /** toon's user-wide file, or null when the command line named none (then the tools need a path argument). */
    Path globalFile() {
        return globalFile;
    }

    Engine engine() {
        return context.engine();
    }

    /** The sessions of every process on this store, in toon's words. */
    ToonSessions sessions() {
        return new ToonSessions(this);
    }

    String zone() {
        return context.defaultZone();
    }

    Path project() {
        return project;
    }

    Instant now() {
        return clock.instant();
    }

    /** Every memory of the zone with its outgoing edges, whatever its status (toon's whole file). */
    List<ExportRecord> records() {
        List<ExportRecord> out = new ArrayList<>();
        engine().records(zone(), out::add);
        return out;
    }

    List<Memory> all() {
        return records().stream().map(ExportRecord::memory).toList();
    }

    /** The memories toon would recall: active and not expired. */
    List<Memory> active() {
        Instant now = now();
        return all().stream().filter(m -> m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now)).toList();
    }

    /** A memory by key or id, without counting it as recalled (toon's lookups do not bump access). */
    Optional<Memory> find(String ref) {
        String r = ToonData.engramRef(ref);
        List<Memory> all = all();
        return all.stream().filter(m -> m.key().equals(r)).findFirst()
                .or(() -> all.stream().filter(m -> m.id().equals(r)).findFirst());
    }

    /**
     * toon's code drift: the entry names a file in the project that was modified on a later day (UTC) than the
     * entry was last written, so what it says about the file may be out of date.
     */
    boolean drifted(Memory m) {
        if (m.file() == null || m.file().isBlank()) return false;
        try {
            Path p = project.resolve(RecallBias.normalFile(m.file()));
            if (!Files.isRegularFile(p)) return false;
            java.time.LocalDate changed = Files.getLastModifiedTime(p).toInstant().atZone(java.time.ZoneOffset.UTC).toLocalDate();
            return changed.isAfter(m.updatedAt().atZone(java.time.ZoneOffset.UTC).toLocalDate());
        } catch (InvalidPathException | java.io.IOException e) {
            return false;
        }
    }

    /** toon's evidence for a file reference ({@code :line} ignored): verified when it exists in the project, else unverified. */
    String evidence(String file) {
        if (file == null || file.isBlank()) return "";
        try {
            return Files.exists(project.resolve(RecallBias.normalFile(file))) ? "verified" : "unverified";
        } catch (InvalidPathException e) {
            return "unverified";
        }
    }
}
