package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.AroundTool;
import dev.engram.mcp.tool.ToolHints;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.Supplier;

/**
 * The engine of a toon-profile server, with the project's data.toon kept in step both ways. Reading: the
 * first call imports the first .toon-memory folder holding data.toon once, into an empty zone (a toon-memory
 * user switching keeps their memories), and from then on what toon or a person changes in that file comes
 * in ({@link ToonData#follow}). Writing: {@link #mirroring} makes every write tool rewrite the followed file
 * from the store afterwards, in toon's format and under toon's lock, so toon itself, its hooks and scripts
 * that read data.toon keep seeing the memory. Only a file Engram follows is ever written; an encrypted one
 * (toon's memory_encrypt) is left alone. The store stays the truth: a mirror that fails is reported on
 * stderr and the call it followed still succeeds.
 */
public final class ToonFollower implements Supplier<Engine> {
    private final Supplier<Engine> engines;
    private final String zone;
    private final List<Path> candidates;
    private final PrintStream log;
    private volatile boolean started;
    private volatile Path followed;
    private volatile String seen = "";
    /**
     * What Engram last knew of the followed file ({@link #last()}); kept in the store too ({@link #baseMark}), so it
     * outlives the process. After a rewrite it is the text written, digested on first need ({@link #written}).
     */
    private ToonData.Snapshot last; // guarded by stateLock
    private ToonData.Exported written; // guarded by stateLock
    private java.time.Instant writtenAt; // guarded by stateLock
    private final Object stateLock = new Object();
    private String persisted = ""; // guarded by persistLock
    /** The store's change number when the file was last written or read: unchanged, nothing to mirror. */
    private long mirroredSeq = -1;
    private String mirroredMarks = "";

    ToonFollower(Supplier<Engine> engines, String zone, List<Path> candidates, PrintStream log) {
        this.engines = engines;
        this.zone = zone;
        this.candidates = candidates;
        this.log = log;
    }

    @Override
    public Engine get() {
        Engine engine = engines.get();
        if (!started) {
            synchronized (this) {
                if (!started) {
                    followed = ToonData.importAtStart(engine, zone, candidates, log);
                    if (followed != null) {
                        seen = ToonData.stamp(followed);
                        // what toon or a person changed in the file while no Engram ran comes in now; without a record
                        // of the file (a store from before it was kept), the file as it is now is taken as known
                        String saved = engine.mark(baseMark()).orElse("");
                        java.util.Optional<ToonData.Snapshot> base = ToonData.Snapshot.decode(saved);
                        persisted = saved.substring(saved.indexOf('\n') + 1);
                        know(base.isPresent() ? ToonData.follow(engine, zone, followed, base.get(), log, true)
                                : ToonData.Snapshot.of(followed, java.time.Instant.now()));
                        persist(engine);
                        // the file is rewritten once something changes, not merely because Engram started
                        mirroredSeq = engine.changeSeq();
                        mirroredMarks = marks(engine);
                    }
                    started = true;
                }
            }
        } else if (followed != null && !ToonData.stamp(followed).equals(seen)) {
            synchronized (this) {
                catchUp(engine);
            }
        }
        return engine;
    }

    /** The data.toon Engram follows (imported now or at an earlier start), or null. */
    public Path followed() {
        get();
        return followed;
    }

    /** toon (or a person) wrote the file since it was last seen: its new and changed entries come in. */
    private void catchUp(Engine engine) {
        String now = ToonData.stamp(followed);
        if (!now.equals(seen)) {
            know(ToonData.follow(engine, zone, followed, last(), log, false));
            seen = now;
            persist(engine);
        }
    }

    private void know(ToonData.Snapshot snapshot) {
        synchronized (stateLock) {
            last = snapshot;
            written = null;
        }
    }

    /** What Engram last knew of the file, the text it last wrote digested now if that is still to do. */
    private ToonData.Snapshot last() {
        synchronized (stateLock) {
            if (written != null) {
                last = written.snapshot(writtenAt);
                written = null;
            }
            return last;
        }
    }

    /** The store mark that keeps {@link #last} for the next start. */
    private String baseMark() {
        return "toon-base/" + zone + "/" + followed.toAbsolutePath().normalize();
    }

    /**
     * Saves {@link #last} after a rewrite, off the tool's path: a store write syncs to disk, and the record is only read
     * at the next start. Should the process end first, that start compares the file with the store as well
     * ({@link ToonData#follow}'s {@code checkStore}), so what Engram itself wrote is not taken for toon's edits.
     */
    private void persistSoon(Engine engine) {
        if (!persistQueued.compareAndSet(false, true)) return; // one queued save covers every rewrite before it runs
        PERSISTER.execute(() -> {
            persistQueued.set(false);
            persist(engine);
        });
    }

    private final java.util.concurrent.atomic.AtomicBoolean persistQueued = new java.util.concurrent.atomic.AtomicBoolean();
    private static final java.util.concurrent.ExecutorService PERSISTER = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "toon-base");
        t.setDaemon(true);
        return t;
    });

    /** Saves {@link #last} in the store when it changed (one small write, only after the file changed). */
    private void persist(Engine engine) {
        // a lock of its own: a save in the background never holds up the next tool's rewrite
        synchronized (persistLock) {
            String encoded = last().encode();
            // the time line differs at every look; only a changed entry or summary is worth a store write
            String body = encoded.substring(encoded.indexOf('\n') + 1);
            if (body.equals(persisted)) return;
            try {
                engine.setMark(baseMark(), encoded);
                persisted = body;
            } catch (RuntimeException e) {
                log.println("engram: could not record what " + followed + " holds: " + e.getMessage()
                        + "; changes toon makes to it while no Engram runs may not come in at the next start");
            }
        }
    }

    private final Object persistLock = new Object();

    /** The profile with every tool that may write rewriting the followed data.toon after it ran. */
    public ToolProfile mirroring(ToolProfile profile) {
        return profile.withTools(t -> ToolHints.isReadOnly(t) ? t : new AroundTool(t, args -> { }, (args, reply) -> {
            mirror();
            return reply;
        }));
    }

    /** Rewrites the followed data.toon from the store when anything it shows changed since it was last written. */
    public void mirror() {
        Engine engine = get();
        Path file = followed;
        if (file == null) return;
        synchronized (this) {
            long seq = engine.changeSeq();
            String marks = marks(engine);
            if (seq == mirroredSeq && marks.equals(mirroredMarks) && ToonData.stamp(file).equals(seen)) return;
            try (ToonLock lock = ToonLock.acquire(file)) {
                if (!Files.isRegularFile(file)) return; // deleted by its owner: not recreated behind their back
                String current = ToonData.readUtf8(file);
                if (ToonData.looksEncrypted(current)) return;
                // an encrypted store is never mirrored into a plain file (memory_encrypt sealed the file; toon may have opened it)
                if (engine.encryption().map(dev.engram.spi.StoreEncryption::encrypted).orElse(false)) return;
                catchUp(engine); // what toon wrote since comes in first, so it is in what is written back
                ToonData.Exported exported = ToonData.exported(engine, zone);
                String text = exported.text();
                if (!text.equals(current)) {
                    Path tmp = file.resolveSibling(file.getFileName() + ".engram-tmp");
                    Files.writeString(tmp, text, StandardCharsets.UTF_8);
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
                seen = ToonData.stamp(file);
                // the file's content now, whether rewritten or already equal; seen after the write, so a memory changed
                // after this counts as changed in Engram
                synchronized (stateLock) {
                    written = exported;
                    writtenAt = java.time.Instant.now();
                }
                persistSoon(engine);
                mirroredSeq = engine.changeSeq();
                mirroredMarks = marks(engine);
            } catch (IOException | RuntimeException e) {
                log.println("engram: could not write the memory back to " + file + ": " + e.getMessage()
                        + "; Engram's store has it (engram export --format toon writes the file by hand)");
            }
        }
    }

    /** What data.toon shows besides the memories: evidence levels and file summaries. */
    private String marks(Engine engine) {
        return engine.mark(ToonEvidence.mark(zone)).orElse("") + "\u0000" + engine.mark(FolderTools.summariesMark(zone)).orElse("");
    }
}
